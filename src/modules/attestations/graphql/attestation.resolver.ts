import { Arg, Args, Ctx, FieldResolver, Mutation, Resolver, Root, UseMiddleware } from 'type-graphql';
import type { GraphQLContext } from '../../../graphql/context';
import { clearLoadersAfter } from '../../../graphql/loaders';
import { toConnection, windowOf, type Connection } from '../../../graphql/relay';
import { givenArgs, parseArgs } from '../../../graphql/arguments';
import { encodeNodeId } from '../../../shared/node-id';
import type { RepositoryRecord } from '../../accounts/accounts.types';
import { Repository, toRepository } from '../../accounts/graphql/account.types';
import { objectOf } from '../../accounts/graphql/node';
import { ATTESTATION_INPUT, attestationListChecks, createBody } from '../attestations.schemas';
import { serializeAttestation } from '../attestations.serializers';
import { attestationCursor } from '../attestations.cursors';
import type { AttestationRecord } from '../attestations.types';
import type { SignerIdentity } from '../attestation-trust';
import {
  Attestation, AttestationArgs, AttestationConnection, AttestationSigner, AttestationSubject, AttestationVerification, CreateAttestationInput, CreateAttestationPayload,
} from './attestation.types';

export function toAttestation(base: string, repo: RepositoryRecord, record: AttestationRecord): Attestation {
  const rest = serializeAttestation(base, { ownerLogin: repo.ownerLogin, name: repo.name }, record);
  return objectOf(Attestation, {
    id: encodeNodeId('Attestation', record.id), databaseId: record.id, bundle: record.bundle, predicateType: record.predicateType,
    bundleUrl: rest.bundle_url, initiator: record.initiatorLogin, repository: toRepository(base, repo), record,
  });
}

/** The signer's six fields, picked (a stored verdict is JSON); an instance, for the deprecated getters. */
function toSigner(signer: SignerIdentity): AttestationSigner {
  const { certificateIssuer, subjectAlternativeName, sourceRepositoryUri, sourceRepositoryOwnerUri, runnerEnvironment, workflowRef } = signer;
  return Object.assign(new AttestationSigner(), { certificateIssuer, subjectAlternativeName, sourceRepositoryUri, sourceRepositoryOwnerUri, runnerEnvironment, workflowRef });
}

@Resolver(() => Repository)
export class RepositoryAttestations {
  @FieldResolver(() => AttestationConnection, { nullable: true, description: 'Attestations of the repository for a subject digest, newest first.' })
  async attestations(@Root() repo: Repository, @Args() args: AttestationArgs, @Ctx() ctx: GraphQLContext): Promise<Connection<Attestation>> {
    const window = windowOf(args);
    // The same checks as #22: the digest's form, the predicate type, the cursors.
    const checked = parseArgs(attestationListChecks, givenArgs({ subjectDigest: args.subjectDigest, predicateType: args.predicateType, after: window.after, before: window.before }), ATTESTATION_INPUT);
    const result = await ctx.services.attestations.list(ctx.principal, repo.record.ownerLogin, repo.name, {
      ...checked, perPage: Math.max(window.perPage, 1), fromEnd: window.fromEnd, withTotal: true,
    });
    const items = window.perPage === 0 ? [] : result.page.items;
    return toConnection({ ...result.page, items }, attestationCursor, (a) => toAttestation(ctx.apiBase, result.repo, a), result.total ?? items.length);
  }
}

@Resolver(() => Attestation)
export class AttestationSubjects {
  @FieldResolver(() => [AttestationSubject], { description: 'The subjects with a sha256 digest, as indexed.' })
  async subjects(@Root() attestation: Attestation, @Ctx() ctx: GraphQLContext): Promise<AttestationSubject[]> {
    return ctx.loaders.attestationSubjectsById.load(attestation.databaseId);
  }

  @FieldResolver(() => AttestationVerification, { description: 'The verdict against the trusted roots in force (the bundled Sigstore public-good root and ATTESTATION_TRUSTED_ROOTS), whatever ATTESTATION_VERIFICATION is.' })
  verification(@Root() attestation: Attestation, @Ctx() ctx: GraphQLContext): AttestationVerification {
    const { verified, reason, signer } = ctx.services.attestations.verificationOf(ctx.principal, attestation.record);
    return { verified, reason, signer: signer && toSigner(signer) };
  }
}

@Resolver()
@UseMiddleware(clearLoadersAfter)
export class AttestationMutations {
  @Mutation(() => CreateAttestationPayload, { nullable: true, description: 'Checks a signed bundle and stores it against a repository (once).' })
  async createAttestation(@Arg('input', { description: 'The repository and bundle.' }) input: CreateAttestationInput, @Ctx() ctx: GraphQLContext): Promise<CreateAttestationPayload> {
    const body = parseArgs(createBody, { bundle: input.bundle }, ATTESTATION_INPUT);
    const { id } = await ctx.services.attestations.create(ctx.principal, input.owner, input.repository, body.bundle);
    const record = await ctx.services.attestations.get(ctx.principal, input.owner, input.repository, id);
    const repo = (await ctx.loaders.repositoryById.load(record.repoId))!;
    return { attestation: toAttestation(ctx.apiBase, repo, record) };
  }
}
