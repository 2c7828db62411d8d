import { ROLES } from './model-world';
import type { Model } from './model';
import { expectAllAlertsMatch } from './alert-checks';
import { expectInclusionsMatch, expectTemplatesMatch } from './oidc-checks';
import { expectRoleHoldersMatch } from './role-checks';
import type { Real } from './real';

/** Everything the model knows, read back through the API as the owner: the end of every run. */
export async function expectWorldMatches(m: Model, real: Real): Promise<void> {
  await expectAllAlertsMatch(m, real);
  await expectRoleHoldersMatch(m, real, ROLES.map((r) => r.name));
  await expectInclusionsMatch(m, real, 'enterprise');
  await expectInclusionsMatch(m, real, 'organization');
  await expectTemplatesMatch(m, real);
}
