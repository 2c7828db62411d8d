import { Arg, Ctx, FieldResolver, Mutation, Resolver, Root, UseMiddleware } from 'type-graphql';
import { callersOf } from '../../../operations';
import type { GraphQLContext } from '../../../graphql/context';
import { clearLoadersAfter } from '../../../graphql/loaders';
import { givenArgs, parseArgs } from '../../../graphql/arguments';
import { Enterprise, Organization, Repository, toEnterprise, toOrganization, toRepository } from '../../accounts/graphql/account.types';
import { INCLUSION_INPUT, ORG_TEMPLATE_INPUT, REPO_TEMPLATE_INPUT, inclusionInput, orgTemplateInput, repoTemplateInput } from '../oidc.schemas';
import type { PropertyInclusion } from '../oidc.types';
import {
  EnterpriseInclusionInput, EnterpriseInclusionPayload, InclusionSource, OidcPropertyInclusion, OrganizationInclusionInput, OrganizationInclusionPayload,
  OrganizationSubjectClaimTemplate, OrganizationTemplatePayload, RepositorySubjectClaimTemplate, RepositoryTemplatePayload,
  SetOrganizationSubjectClaimTemplateInput, SetRepositorySubjectClaimTemplateInput,
} from './oidc.types';

const toInclusion = (i: PropertyInclusion): OidcPropertyInclusion => ({ customPropertyName: i.customPropertyName, source: i.source as InclusionSource });

@Resolver(() => Enterprise)
export class EnterpriseOidc {
  @FieldResolver(() => [OidcPropertyInclusion], { nullable: true, description: `Custom properties in OIDC tokens, set for the enterprise (${callersOf('listEnterpriseOidcInclusions')}).` })
  async oidcPropertyInclusions(@Root() enterprise: Enterprise, @Ctx() ctx: GraphQLContext): Promise<OidcPropertyInclusion[]> {
    return (await ctx.services.oidc.listEnterpriseInclusions(ctx.principal, enterprise.slug)).map(toInclusion);
  }
}

@Resolver(() => Organization)
export class OrganizationOidc {
  @FieldResolver(() => [OidcPropertyInclusion], { nullable: true, description: 'Custom properties in OIDC tokens, set for the organization.' })
  async oidcPropertyInclusions(@Root() org: Organization, @Ctx() ctx: GraphQLContext): Promise<OidcPropertyInclusion[]> {
    return (await ctx.services.oidc.listOrgInclusions(ctx.principal, org.login)).map(toInclusion);
  }

  @FieldResolver(() => OrganizationSubjectClaimTemplate, { nullable: true, description: 'The organization\'s OIDC subject claim template (the default before any is set).' })
  async oidcSubjectClaimTemplate(@Root() org: Organization, @Ctx() ctx: GraphQLContext): Promise<OrganizationSubjectClaimTemplate> {
    return ctx.services.oidc.getOrgTemplate(ctx.principal, org.login);
  }
}

@Resolver(() => Repository)
export class RepositoryOidc {
  @FieldResolver(() => RepositorySubjectClaimTemplate, { nullable: true, description: 'The OIDC subject claim template in effect for the repository.' })
  async oidcSubjectClaimTemplate(@Root() repo: Repository, @Ctx() ctx: GraphQLContext): Promise<RepositorySubjectClaimTemplate> {
    return ctx.services.oidc.getRepoTemplate(ctx.principal, repo.record.ownerLogin, repo.name);
  }
}

@Resolver()
@UseMiddleware(clearLoadersAfter)
export class OidcMutations {
  @Mutation(() => EnterpriseInclusionPayload, { nullable: true, description: 'Includes a custom property in the OIDC tokens of every organization of an enterprise.' })
  async addEnterpriseOidcPropertyInclusion(@Arg('input', { description: 'The inclusion.' }) input: EnterpriseInclusionInput, @Ctx() ctx: GraphQLContext): Promise<EnterpriseInclusionPayload> {
    const { customPropertyName } = parseArgs(inclusionInput, { customPropertyName: input.customPropertyName }, INCLUSION_INPUT);
    await ctx.services.oidc.createEnterpriseInclusion(ctx.principal, input.enterprise, customPropertyName);
    return this.enterprisePayload(ctx, input.enterprise);
  }

  @Mutation(() => EnterpriseInclusionPayload, { nullable: true, description: 'Removes an enterprise custom property inclusion.' })
  async removeEnterpriseOidcPropertyInclusion(@Arg('input', { description: 'The inclusion.' }) input: EnterpriseInclusionInput, @Ctx() ctx: GraphQLContext): Promise<EnterpriseInclusionPayload> {
    const { customPropertyName } = parseArgs(inclusionInput, { customPropertyName: input.customPropertyName }, INCLUSION_INPUT);
    await ctx.services.oidc.deleteEnterpriseInclusion(ctx.principal, input.enterprise, customPropertyName);
    return this.enterprisePayload(ctx, input.enterprise);
  }

  @Mutation(() => OrganizationInclusionPayload, { nullable: true, description: 'Includes a custom property in the OIDC tokens of an organization\'s workflows.' })
  async addOrganizationOidcPropertyInclusion(@Arg('input', { description: 'The inclusion.' }) input: OrganizationInclusionInput, @Ctx() ctx: GraphQLContext): Promise<OrganizationInclusionPayload> {
    const { customPropertyName } = parseArgs(inclusionInput, { customPropertyName: input.customPropertyName }, INCLUSION_INPUT);
    await ctx.services.oidc.createOrgInclusion(ctx.principal, input.organization, customPropertyName);
    return this.organizationPayload(ctx, input.organization);
  }

  @Mutation(() => OrganizationInclusionPayload, { nullable: true, description: 'Removes an organization custom property inclusion.' })
  async removeOrganizationOidcPropertyInclusion(@Arg('input', { description: 'The inclusion.' }) input: OrganizationInclusionInput, @Ctx() ctx: GraphQLContext): Promise<OrganizationInclusionPayload> {
    const { customPropertyName } = parseArgs(inclusionInput, { customPropertyName: input.customPropertyName }, INCLUSION_INPUT);
    await ctx.services.oidc.deleteOrgInclusion(ctx.principal, input.organization, customPropertyName);
    return this.organizationPayload(ctx, input.organization);
  }

  @Mutation(() => OrganizationTemplatePayload, { nullable: true, description: 'Replaces an organization\'s OIDC subject claim template.' })
  async setOrganizationOidcSubjectClaimTemplate(@Arg('input', { description: 'The template.' }) input: SetOrganizationSubjectClaimTemplateInput, @Ctx() ctx: GraphQLContext): Promise<OrganizationTemplatePayload> {
    const update = parseArgs(orgTemplateInput, givenArgs({ includeClaimKeys: input.includeClaimKeys, useImmutableSubject: input.useImmutableSubject }), ORG_TEMPLATE_INPUT);
    await ctx.services.oidc.setOrgTemplate(ctx.principal, input.organization, update);
    const { org, template } = await ctx.services.oidc.getOrgTemplateWithOrg(ctx.principal, input.organization);
    return { organization: toOrganization(ctx.apiBase, org), template };
  }

  @Mutation(() => RepositoryTemplatePayload, { nullable: true, description: 'Sets a repository\'s OIDC subject claim template and opt-in.' })
  async setRepositoryOidcSubjectClaimTemplate(@Arg('input', { description: 'The template.' }) input: SetRepositorySubjectClaimTemplateInput, @Ctx() ctx: GraphQLContext): Promise<RepositoryTemplatePayload> {
    const update = parseArgs(repoTemplateInput, givenArgs({ useDefault: input.useDefault, includeClaimKeys: input.includeClaimKeys, useImmutableSubject: input.useImmutableSubject }), REPO_TEMPLATE_INPUT);
    await ctx.services.oidc.setRepoTemplate(ctx.principal, input.owner, input.repository, update);
    const { repo, template } = await ctx.services.oidc.getRepoTemplateWithRepo(ctx.principal, input.owner, input.repository);
    return { repository: toRepository(ctx.apiBase, repo), template };
  }

  private async enterprisePayload(ctx: GraphQLContext, slug: string): Promise<EnterpriseInclusionPayload> {
    const { enterprise, inclusions } = await ctx.services.oidc.listEnterpriseInclusionsWithEnterprise(ctx.principal, slug);
    return { enterprise: toEnterprise(enterprise), inclusions: inclusions.map(toInclusion) };
  }

  private async organizationPayload(ctx: GraphQLContext, login: string): Promise<OrganizationInclusionPayload> {
    const { org, inclusions } = await ctx.services.oidc.listOrgInclusionsWithOrg(ctx.principal, login);
    return { organization: toOrganization(ctx.apiBase, org), inclusions: inclusions.map(toInclusion) };
  }
}
