import { Arg, Ctx, Mutation, Resolver, UseMiddleware } from 'type-graphql';
import type { GraphQLContext } from '../../../graphql/context';
import { clearLoadersAfter } from '../../../graphql/loaders';
import { parseInput } from '../../../http/validate';
import { sbomUploadAnswer } from '../sbom.serializers';
import { sbomUploadQuery } from '../sbom.schemas';
import { SBOM_RESOURCE } from '../sbom-upload.service';
import { UploadSbomInput, UploadSbomPayload } from './sbom.types';

const present = <T>(value: T | null | undefined): T | undefined => value ?? undefined;

@Resolver()
@UseMiddleware(clearLoadersAfter)
export class SbomMutations {
  @Mutation(() => UploadSbomPayload, { nullable: true, description: 'Records an SBOM as a snapshot of dependencies, as POST /repos/{owner}/{repo}/dependency-graph/sbom-uploads does.' })
  async uploadSbom(@Arg('input', { description: 'The repository and the document.' }) input: UploadSbomInput, @Ctx() ctx: GraphQLContext): Promise<UploadSbomPayload> {
    const startedAt = performance.now();
    const options = parseInput(sbomUploadQuery, { manifest: present(input.manifest), ref: present(input.ref), sha: present(input.sha), correlator: present(input.correlator) }, { resource: SBOM_RESOURCE, invalidStatus: 422 });
    const receipt = await ctx.services.sbomUploads.upload(ctx.principal, input.owner, input.repository, JSON.stringify(input.document ?? null), options, { startedAt, countedAsOther: true });
    const answer = sbomUploadAnswer(receipt);
    return {
      id: answer.id, createdAt: answer.created_at, result: answer.result, message: answer.message, format: answer.format, manifest: answer.manifest,
      components: answer.components.total, recorded: answer.components.recorded, unmatchable: answer.components.unmatchable, skipped: answer.skipped,
    };
  }
}
