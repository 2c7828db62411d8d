import { Field, InputType, Int, ObjectType } from 'type-graphql';

// GraphQL's auto-triage types (interfaces.md Part 2 "Auto-triage rules"): the REST shapes in camelCase.

/** Read and written alike: one class is both the object type and the input type. */
@ObjectType('DependencyBotRuleConditions', { simpleResolvers: true, description: 'A rule\'s conditions: each list matches any of its values; every condition given must match. Absent ones are null.' })
@InputType('DependencyBotRuleConditionsInput', { description: 'A rule\'s conditions; give at least one. Lists match any of their values.' })
export class DependencyBotRuleConditions {
  @Field(() => [String], { nullable: true, description: 'low, medium, high or critical.' }) severity?: string[] | null | undefined;
  @Field(() => [String], { nullable: true, description: 'runtime or development.' }) scope?: string[] | null | undefined;
  @Field(() => [String], { nullable: true, description: 'Package ecosystems.' }) ecosystem?: string[] | null | undefined;
  @Field(() => [String], { nullable: true, description: 'Package names.' }) package?: string[] | null | undefined;
  @Field(() => [String], { nullable: true, description: 'CWE ids, CWE-<n>.' }) cwe?: string[] | null | undefined;
  @Field(() => [String], { nullable: true, description: 'Advisory ids.' }) svcsaId?: string[] | null | undefined;
  @Field(() => [String], { nullable: true, description: 'CVE ids.' }) cveId?: string[] | null | undefined;
  @Field(() => [String], { nullable: true, description: 'Manifest paths (repository rules only).' }) manifest?: string[] | null | undefined;
  @Field(() => Boolean, { nullable: true, description: 'Whether the vulnerability has a patched version.' }) hasPatch?: boolean | null | undefined;
}

@ObjectType({ simpleResolvers: true, description: 'An auto-triage rule of an organization or a repository.' })
export class DependencyBotRule {
  @Field(() => Int, { description: 'The id REST answers use.' }) id!: number;
  @Field({ description: 'The rule\'s name.' }) name!: string;
  @Field({ description: 'enforced (organization rules), enabled or disabled.' }) enforcement!: string;
  @Field(() => DependencyBotRuleConditions, { description: 'What alerts it matches.' }) conditions!: DependencyBotRuleConditions;
  @Field({ description: 'dismiss, or dismiss_until_patch.' }) action!: string;
  @Field({ description: 'When it was created.' }) createdAt!: string;
  @Field({ description: 'When it was last changed.' }) updatedAt!: string;
}

@ObjectType({ simpleResolvers: true, description: 'The auto-triage preset switches of an organization or a repository.' })
export class DependencyBotPresets {
  @Field(() => Boolean, {
    nullable: true,
    description: 'Dismiss low impact issues for development-scoped npm dependencies. null: the default (the organization\'s setting, else on for public repositories and off for private ones).',
  })
  lowImpactDevelopment!: boolean | null;
}

const OWNER = 'The organization\'s login, or the repository\'s owner.';
const REPOSITORY = 'The repository\'s name for a repository rule; absent for an organization rule.';

@InputType({ description: 'A rule to create, as POST …/dependency-bot/rules takes it.' })
export class CreateDependencyBotRuleInput {
  @Field({ description: OWNER }) owner!: string;
  @Field(() => String, { nullable: true, description: REPOSITORY }) repository?: string | null;
  @Field({ description: 'The rule\'s name (at most 100 characters).' }) name!: string;
  @Field(() => String, { nullable: true, description: 'enforced (organization rules), enabled (the default) or disabled.' }) enforcement?: string | null;
  @Field(() => DependencyBotRuleConditions, { description: 'What alerts it matches.' }) conditions!: DependencyBotRuleConditions;
  @Field(() => String, { nullable: true, description: 'dismiss (the default) or dismiss_until_patch.' }) action?: string | null;
}

@InputType({ description: 'Changes to a rule: the fields given; conditions replace the rule\'s whole.' })
export class UpdateDependencyBotRuleInput {
  @Field({ description: OWNER }) owner!: string;
  @Field(() => String, { nullable: true, description: REPOSITORY }) repository?: string | null;
  @Field(() => Int, { description: 'The rule\'s id.' }) ruleId!: number;
  @Field(() => String, { nullable: true, description: 'The rule\'s name.' }) name?: string | null;
  @Field(() => String, { nullable: true, description: 'enforced (organization rules), enabled or disabled.' }) enforcement?: string | null;
  @Field(() => DependencyBotRuleConditions, { nullable: true, description: 'What alerts it matches.' }) conditions?: DependencyBotRuleConditions | null;
  @Field(() => String, { nullable: true, description: 'dismiss or dismiss_until_patch.' }) action?: string | null;
}

@InputType({ description: 'A rule to delete.' })
export class DeleteDependencyBotRuleInput {
  @Field({ description: OWNER }) owner!: string;
  @Field(() => String, { nullable: true, description: REPOSITORY }) repository?: string | null;
  @Field(() => Int, { description: 'The rule\'s id.' }) ruleId!: number;
}

@InputType({ description: 'The preset switches to set.' })
export class SetDependencyBotPresetsInput {
  @Field({ description: OWNER }) owner!: string;
  @Field(() => String, { nullable: true, description: REPOSITORY }) repository?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'true, false, or null for the default.' }) lowImpactDevelopment!: boolean | null;
}

@ObjectType({ simpleResolvers: true, description: 'The result of creating or updating a rule.' })
export class DependencyBotRulePayload {
  @Field(() => DependencyBotRule, { description: 'The rule as it now is.' }) rule!: DependencyBotRule;
}

@ObjectType({ simpleResolvers: true, description: 'The result of deleting a rule.' })
export class DeleteDependencyBotRulePayload {
  @Field(() => Int, { description: 'The id of the rule deleted.' }) deletedRuleId!: number;
}

@ObjectType({ simpleResolvers: true, description: 'The result of setting presets.' })
export class DependencyBotPresetsPayload {
  @Field(() => DependencyBotPresets, { description: 'The presets as they now are.' }) presets!: DependencyBotPresets;
}
