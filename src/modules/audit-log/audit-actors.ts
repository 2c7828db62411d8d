import os from 'node:os';
import type { Principal } from '../../auth/principal';
import type { TokenType } from '../../auth/grants';
import type { AuditActor } from './audit-log.types';

// Who a record says made the change.

/** The original's names for each kind of token, without its brand. */
const ACCESS_TYPES: Record<TokenType, string> = {
  classic: 'Personal access token (classic)',
  oauth: 'OAuth access token',
  fine_grained: 'Fine-grained personal access token',
  app_user: 'App user-to-server token',
  installation: 'App server-to-server token',
};

/** The caller of a REST or GraphQL write. An anonymous caller writes nothing (every write needs a token). */
export function actorOf(principal: Principal): AuditActor {
  switch (principal.kind) {
    case 'user':
      return { actor: principal.login, actorId: principal.userId, actorIsBot: false, tokenId: principal.tokenId, programmaticAccessType: ACCESS_TYPES[principal.tokenType] };
    case 'app':
      return { actor: `${principal.appName}[bot]`, actorId: null, actorIsBot: true, tokenId: principal.tokenId, programmaticAccessType: ACCESS_TYPES.installation };
    case 'anonymous':
      return { actor: 'anonymous', actorId: null, actorIsBot: false, tokenId: null, programmaticAccessType: null };
  }
}

/** The alert engine: alerts opened, fixed, reintroduced and triaged by snapshots, imports and rules (the events' sender too). */
export const ENGINE_ACTOR: AuditActor = { actor: 'dependency-bot[bot]', actorId: null, actorIsBot: true, tokenId: null, programmaticAccessType: null };

/** An operator's command (`orgsec token create`, `load`, …): the account that ran it, as the machine knows it. */
export function commandActor(): AuditActor {
  let name: string;
  try {
    name = os.userInfo().username;
  } catch {
    name = 'unknown';
  }
  return { actor: `orgsec-cli (${name})`, actorId: null, actorIsBot: false, tokenId: null, programmaticAccessType: null };
}
