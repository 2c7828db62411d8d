import type { ApiClient } from './api-client';
import { ENTERPRISE, MEMBERS, ORG, PROPERTIES } from './crash-world';
import type { ToggleTarget } from './toggle-lane';

// What the toggle lanes flip: user role assignments (#6/#7, read back with #10) and OIDC
// property inclusions of the enterprise and the organization (#12/#13, #15/#16, read with #11, #14).

async function listed<T>(api: ApiClient, path: string): Promise<T[]> {
  const { status, body } = await api.send('GET', path);
  if (status !== 200) throw new Error(`GET ${path} answered ${status}: ${JSON.stringify(body)}`);
  return body as T[];
}

/** Keys are `login as role name`; `roleIds` maps each custom role's name to its id. */
export function roleAssignments(roleIds: ReadonlyMap<string, number>): ToggleTarget {
  const roles = [...roleIds.keys()];
  const path = (key: string) => {
    const [login, role] = key.split(' as ') as [string, string];
    return `/orgs/${ORG}/organization-roles/users/${login}/${roleIds.get(role)}`;
  };
  return {
    keys: MEMBERS.flatMap((login) => roles.map((role) => `${login} as ${role}`)),
    add: (key) => ({ method: 'PUT', path: path(key), status: 204 }),
    remove: (key) => ({ method: 'DELETE', path: path(key), status: 204 }),
    async present(api) {
      const keys = new Set<string>();
      for (const [role, id] of roleIds) {
        for (const user of await listed<{ login: string }>(api, `/orgs/${ORG}/organization-roles/${id}/users?per_page=100`)) keys.add(`${user.login} as ${role}`);
      }
      return keys;
    },
  };
}

const INCLUSION_PATHS = {
  enterprise: `/enterprises/${ENTERPRISE}/actions/oidc/customization/properties/repo`,
  organization: `/orgs/${ORG}/actions/oidc/customization/properties/repo`,
} as const;

/** Keys are `enterprise:name` and `organization:name`. */
export function oidcInclusions(): ToggleTarget {
  const split = (key: string) => key.split(':') as [keyof typeof INCLUSION_PATHS, string];
  return {
    keys: PROPERTIES.flatMap((name) => [`enterprise:${name}`, `organization:${name}`]),
    add: (key) => {
      const [owner, name] = split(key);
      return { method: 'POST', path: INCLUSION_PATHS[owner], body: { custom_property_name: name }, status: 201 };
    },
    remove: (key) => {
      const [owner, name] = split(key);
      return { method: 'DELETE', path: `${INCLUSION_PATHS[owner]}/${name}`, status: 204 };
    },
    async present(api) {
      const keys = new Set<string>();
      for (const owner of ['enterprise', 'organization'] as const) {
        const items = await listed<{ custom_property_name: string; inclusion_source: string }>(api, INCLUSION_PATHS[owner]);
        for (const item of items) if (item.inclusion_source === owner) keys.add(`${owner}:${item.custom_property_name}`);
      }
      return keys;
    },
  };
}
