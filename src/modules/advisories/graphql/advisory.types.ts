import { Directive, Field, Float, InputType, ObjectType } from 'type-graphql';
import { GraphQLJSON } from 'graphql-scalars';
import { connectionOf } from '../../../graphql/relay';
import { encodeNodeId } from '../../../shared/node-id';
import { Node, objectOf } from '../../accounts/graphql/node';
import { advisoryUrls } from '../advisories.serializers';
import type { AdvisoryRecord, AdvisoryVulnerability } from '../advisories.types';
import { AdvisoryClassification, AdvisoryType, Ecosystem, Severity } from './advisory.enums';

// The advisory's GraphQL types: as alerts show it (DependencyAlert.securityAdvisory) and as the
// global list does (securityAdvisory, securityAdvisories), one type for both.

@ObjectType({ simpleResolvers: true, description: 'A package in an ecosystem.' })
export class Package {
  @Field(() => Ecosystem, { description: 'The package ecosystem.' }) ecosystem!: Ecosystem;
  @Field({ description: 'The package name.' }) name!: string;
}

@ObjectType({ simpleResolvers: true, description: 'A vulnerable version range of a package and its fix.' })
export class SecurityVulnerability {
  @Field(() => Package, { description: 'The package.' }) package!: Package;
  @Field(() => Severity, { description: 'The severity for this package.' }) severity!: Severity;
  @Field({ description: 'A comma-separated comparator expression.' }) vulnerableVersionRange!: string;
  @Field(() => String, { nullable: true, description: 'The first version with the fix, if there is one.' }) firstPatchedVersion!: string | null;
  @Field(() => [String], { description: 'The vulnerable functions the source names.' }) vulnerableFunctions!: string[];
}

@ObjectType({ simpleResolvers: true, description: 'A CVSS vector and score.' })
export class Cvss {
  @Field(() => String, { nullable: true, description: 'The CVSS vector.' }) vectorString!: string | null;
  @Field(() => Float, { description: 'The CVSS score.' }) score!: number;
}

@ObjectType({ simpleResolvers: true, description: 'The exploit prediction scoring system figures.' })
export class Epss {
  @Field(() => Float, { description: 'The probability of exploitation, 0 to 1.' }) percentage!: number;
  @Field(() => String, { nullable: true, description: 'The percentile among all scored vulnerabilities.' }) percentile!: string | null;
}

@ObjectType({ simpleResolvers: true, description: 'A weakness class.' })
export class Cwe {
  @Field({ description: 'The CWE id.' }) cweId!: string;
  @Field({ description: 'The CWE name.' }) name!: string;
}

@ObjectType({ simpleResolvers: true, description: 'An identifier of an advisory.' })
export class AdvisoryIdentifier {
  @Field({ description: 'SVCSA or CVE.' }) type!: string;
  @Field({ description: 'The identifier.' }) value!: string;
}

@ObjectType({ simpleResolvers: true, description: 'Someone the source credits for an advisory.' })
export class AdvisoryCredit {
  @Field({ description: 'The name credited.' }) name!: string;
  @Field(() => String, { nullable: true, description: 'The kind of credit (finder, reporter, analyst, …).' }) type!: string | null;
  @Field(() => [String], { description: 'How to reach them.' }) contact!: string[];
}

@Directive('@key(fields: "id")')
@ObjectType({ simpleResolvers: true, implements: Node, description: 'A security advisory.' })
export class SecurityAdvisory extends Node {
  @Field({ description: 'The advisory identifier.' }) svcsaId!: string;
  @Field(() => AdvisoryType, { description: 'Reviewed, unreviewed or malware.' }) type!: AdvisoryType;
  @Field({ description: 'The REST URL of the advisory.' }) url!: string;
  @Field({ description: 'The web URL of the advisory.' }) htmlUrl!: string;
  @Field(() => String, { nullable: true, description: 'Where the affected source code lives, when known.' }) sourceCodeLocation!: string | null;
  @Field(() => Date, { nullable: true, description: 'When it was reviewed, if it was.' }) reviewedAt!: Date | null;
  @Field(() => Date, { nullable: true, description: 'When the NVD published it, if it did.' }) nvdPublishedAt!: Date | null;
  @Field(() => [AdvisoryCredit], { description: 'Who the source credits.' }) credits!: AdvisoryCredit[];
  @Field(() => String, { nullable: true, description: 'The CVE identifier, if any.' }) cveId!: string | null;
  @Field({ description: 'A short summary.' }) summary!: string;
  @Field({ description: 'The full description.' }) description!: string;
  @Field(() => Severity, { description: 'The severity.' }) severity!: Severity;
  @Field(() => AdvisoryClassification, { description: 'General or malware.' }) classification!: AdvisoryClassification;
  @Field(() => Cvss, { description: 'The CVSS vector and score.' }) cvss!: Cvss;
  @Field(() => GraphQLJSON, { description: 'CVSS v3 and v4 vectors and scores.' }) cvssSeverities!: unknown;
  @Field(() => Epss, { nullable: true, description: 'EPSS figures, when known.' }) epss!: Epss | null;
  @Field(() => [Cwe], { description: 'Weakness classes.' }) cwes!: Cwe[];
  @Field(() => [AdvisoryIdentifier], { description: 'Identifiers.' }) identifiers!: AdvisoryIdentifier[];
  @Field(() => [String], { description: 'Reference URLs.' }) references!: string[];
  @Field(() => Date, { description: 'When it was published.' }) publishedAt!: Date;
  @Field(() => Date, { description: 'When it was last updated.' }) updatedAt!: Date;
  @Field(() => Date, { nullable: true, description: 'When it was withdrawn, if it was.' }) withdrawnAt!: Date | null;
  @Field(() => [SecurityVulnerability], { description: 'The vulnerable packages.' }) vulnerabilities!: SecurityVulnerability[];
}

export const SecurityAdvisoryConnection = connectionOf('SecurityAdvisory', SecurityAdvisory, 'a list of global security advisories');

@InputType({ description: 'A condition on the EPSS percentage; give one comparison, or atLeast and atMost for a range.' })
export class EpssFilter {
  @Field(() => Float, { nullable: true, description: 'Exactly this value.' }) equals?: number;
  @Field(() => Float, { nullable: true, description: 'Greater than this value.' }) greaterThan?: number;
  @Field(() => Float, { nullable: true, description: 'Less than this value.' }) lessThan?: number;
  @Field(() => Float, { nullable: true, description: 'At least this value.' }) atLeast?: number;
  @Field(() => Float, { nullable: true, description: 'At most this value.' }) atMost?: number;
}

const date = (value: string | null) => (value === null ? null : new Date(value));

/** The GraphQL shape of an advisory's vulnerability entry. */
export function toSecurityVulnerability(v: AdvisoryVulnerability) {
  return {
    package: { ecosystem: v.ecosystem, name: v.packageName }, severity: v.severity, vulnerableVersionRange: v.vulnerableVersionRange,
    firstPatchedVersion: v.firstPatchedVersion, vulnerableFunctions: v.vulnerableFunctions,
  } as SecurityVulnerability;
}

/** The GraphQL shape of an advisory, as alerts and the global list show it. */
export function toSecurityAdvisory(base: string, advisory: AdvisoryRecord): SecurityAdvisory {
  const urls = advisoryUrls(base, advisory.svcsaId);
  return objectOf(SecurityAdvisory, {
    id: encodeNodeId('Advisory', advisory.id), svcsaId: advisory.svcsaId, type: advisory.type, url: urls.url, htmlUrl: urls.html_url,
    sourceCodeLocation: advisory.sourceCodeLocation, reviewedAt: date(advisory.reviewedAt), nvdPublishedAt: date(advisory.nvdPublishedAt), credits: advisory.credits, cveId: advisory.cveId, summary: advisory.summary, description: advisory.description,
    severity: advisory.severity, classification: advisory.classification,
    cvss: { vectorString: advisory.cvssVectorString, score: advisory.cvssScore ?? 0 }, cvssSeverities: advisory.cvssSeverities,
    epss: advisory.epssPercentage === null ? null : { percentage: advisory.epssPercentage, percentile: advisory.epssPercentile },
    cwes: advisory.cwes.map((c) => ({ cweId: c.cwe_id, name: c.name })), identifiers: advisory.identifiers, references: advisory.references.map((r) => r.url),
    publishedAt: new Date(advisory.publishedAt), updatedAt: new Date(advisory.updatedAt), withdrawnAt: date(advisory.withdrawnAt),
    vulnerabilities: advisory.vulnerabilities.map(toSecurityVulnerability),
  } as SecurityAdvisory);
}
