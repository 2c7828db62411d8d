import type { WebhooksStore } from '../webhooks/webhooks.store';
import { MAX_HOOKS, webhookInputOf } from '../webhooks/webhooks.schemas';
import { forbiddenUrlReason } from '../webhooks/target-policy';
import type { HookOwner } from '../webhooks/webhooks.types';
import type { SectionContext } from './world.accounts';
import { fail } from './world.support';
import type { World } from './world.schema';

async function ownerOf(ctx: SectionContext, entry: string, org: string | undefined, repository: string | undefined): Promise<HookOwner> {
  if (org !== undefined) {
    const found = await ctx.refs.org(entry, org);
    return { kind: 'org', orgId: found.id, login: found.login };
  }
  const repo = await ctx.refs.repo(entry, repository!); // the schema made sure it names exactly one
  return { kind: 'repo', repoId: repo.id, owner: repo.ownerLogin, name: repo.name };
}

/**
 * `webhooks`: a hook is known by its owner and `config.url`, so loading a world twice changes
 * nothing (a declared hook updates the one with that URL, its secret included). The file is the
 * operator's: any http or https URL is taken; where it resolves is checked at each delivery
 * (target-policy.ts). No ping is queued: a world declares state, not events.
 */
export async function loadWebhooks(ctx: SectionContext, hooks: World['webhooks'], store: WebhooksStore): Promise<void> {
  for (const [i, { org, repository, ...body }] of hooks.entries()) {
    const entry = `webhooks[${i}]`;
    const owner = await ownerOf(ctx, entry, org, repository);
    const input = webhookInputOf(body);
    const reason = forbiddenUrlReason(new URL(input.config.url), true);
    if (reason !== null) fail(`${entry}.config.url`, reason);
    const existing = (await store.list(ctx.trx, owner)).find((h) => h.config.url === input.config.url);
    if (existing) {
      // Unchanged, it is left alone (its updated_at too): loading a world twice changes nothing.
      const c = existing.config;
      const same = existing.active === input.active && JSON.stringify(existing.events) === JSON.stringify(input.events)
        && c.contentType === input.config.contentType && c.insecureSsl === input.config.insecureSsl && (await store.hasSecret(ctx.trx, existing.id, input.config.secret));
      if (!same) await store.update(ctx.trx, existing, { active: input.active, events: input.events, config: input.config }, input.config.secret, ctx.now);
      continue;
    }
    if ((await store.lockAndCount(ctx.trx, owner)) >= MAX_HOOKS) {
      fail(entry, `${org !== undefined ? `organization "${org}"` : `repository "${repository}"`} would have more than ${MAX_HOOKS} hooks`);
    }
    await store.insert(ctx.trx, owner, input, ctx.now);
  }
}
