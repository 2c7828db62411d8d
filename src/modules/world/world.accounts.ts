import type { Knex } from 'knex';
import { nameKey, type AccountsStore } from '../accounts/accounts.store';
import type { OrgRolesStore } from '../org-roles/org-roles.store';
import { booleanColumn, defined, fail, replaceSet, type References } from './world.support';
import type { World } from './world.schema';

export interface SectionContext {
  trx: Knex.Transaction;
  refs: References;
  accounts: AccountsStore;
  roles: OrgRolesStore;
  now: string;
}

/** Inserts or updates an account by login; returns its id. */
async function upsertAccount(ctx: SectionContext, entry: string, type: 'User' | 'Organization', values: Record<string, unknown> & { login: string }): Promise<number> {
  const { trx, now } = ctx;
  const existing = await trx('accounts').where('login_key', nameKey(values.login)).first('id', 'type');
  if (existing && existing.type !== type) fail(entry, `the login "${values.login}" already belongs to ${existing.type === 'User' ? 'a user' : 'an organization'}`);
  const columns = defined({ ...values, login_key: nameKey(values.login) });
  if (existing) {
    await trx('accounts').where('id', existing.id).update(columns);
    return Number(existing.id);
  }
  const [row] = await trx('accounts').insert({ ...columns, type, created_at: now, updated_at: now }).returning('id');
  return Number(row.id ?? row);
}

export async function loadUsers(ctx: SectionContext, users: World['users']): Promise<void> {
  for (const [i, u] of users.entries()) {
    await upsertAccount(ctx, `users[${i}] "${u.login}"`, 'User', {
      login: u.login, name: u.name, email: u.email, site_admin: booleanColumn(u.site_admin),
    });
  }
}

/** Owners and members of an enterprise or organization: a login in both lists is an owner. */
async function memberRows(ctx: SectionContext, entry: string, owners: string[] | undefined, members: string[] | undefined, ownerRole: string) {
  const roles = new Map<number, string>();
  for (const login of members ?? []) roles.set((await ctx.refs.user(entry, login)).id, 'member');
  for (const login of owners ?? []) roles.set((await ctx.refs.user(entry, login)).id, ownerRole);
  return [...roles].map(([user_id, role]) => ({ user_id, role }));
}

export async function loadEnterprises(ctx: SectionContext, enterprises: World['enterprises']): Promise<void> {
  const { trx, now } = ctx;
  for (const [i, e] of enterprises.entries()) {
    const entry = `enterprises[${i}] "${e.slug}"`;
    const existing = await trx('enterprises').where('slug_key', nameKey(e.slug)).first('id');
    let id: number;
    if (existing) {
      id = Number(existing.id);
      await trx('enterprises').where('id', id).update(defined({ slug: e.slug, name: e.name }));
    } else {
      const [row] = await trx('enterprises').insert({ slug: e.slug, slug_key: nameKey(e.slug), name: e.name ?? e.slug, created_at: now, updated_at: now }).returning('id');
      id = Number(row.id ?? row);
    }
    if (e.owners !== undefined || e.members !== undefined) {
      await replaceSet(trx, 'enterprise_members', { enterprise_id: id }, await memberRows(ctx, entry, e.owners, e.members, 'owner'), ['enterprise_id', 'user_id', 'role']);
    }
  }
}

export async function loadOrganizations(ctx: SectionContext, organizations: World['organizations']): Promise<void> {
  const { trx } = ctx;
  for (const [i, o] of organizations.entries()) {
    const entry = `organizations[${i}] "${o.login}"`;
    const id = await upsertAccount(ctx, entry, 'Organization', { login: o.login, name: o.name, description: o.description });
    let enterpriseId: number | null | undefined;
    if (o.enterprise === null) enterpriseId = null;
    else if (o.enterprise !== undefined) {
      const enterprise = await trx('enterprises').where('slug_key', nameKey(o.enterprise)).first('id');
      if (!enterprise) fail(entry, `enterprise "${o.enterprise}" does not exist`);
      enterpriseId = Number(enterprise.id);
    }
    const settings = defined({ enterprise_id: enterpriseId, organization_roles_enabled: booleanColumn(o.organization_roles_enabled) });
    if (await trx('organizations').where('account_id', id).first('account_id')) {
      if (Object.keys(settings).length) await trx('organizations').where('account_id', id).update(settings);
    } else {
      await trx('organizations').insert({ account_id: id, ...settings });
    }
    if (o.owners !== undefined || o.members !== undefined) await replaceMembers(trx, id, await memberRows(ctx, entry, o.owners, o.members, 'admin'));
    if (o.custom_properties !== undefined) await replaceCustomProperties(trx, id, o.custom_properties);
  }
  ctx.refs.clear();
}

/** Members no longer declared leave the organization with their teams and roles. */
async function replaceMembers(trx: Knex.Transaction, orgId: number, rows: Array<{ user_id: number; role: string }>): Promise<void> {
  const declared = new Set(rows.map((r) => r.user_id));
  const leaving = (await trx('organization_members').where('org_id', orgId).select('user_id')).map((r) => Number(r.user_id)).filter((id) => !declared.has(id));
  if (leaving.length > 0) {
    await trx('organization_role_users').where('org_id', orgId).whereIn('user_id', leaving).delete();
    await trx('team_members').whereIn('user_id', leaving).whereIn('team_id', trx('teams').where('org_id', orgId).select('id')).delete();
  }
  await replaceSet(trx, 'organization_members', { org_id: orgId }, rows, ['org_id', 'user_id', 'role']);
}

/** Declared properties are upserted; undeclared ones go, and their OIDC inclusions with them. */
async function replaceCustomProperties(trx: Knex.Transaction, orgId: number, properties: NonNullable<World['organizations'][number]['custom_properties']>): Promise<void> {
  const names = properties.map((p) => p.name);
  // A removed property takes its values on the organization's repositories with it.
  await trx('repository_custom_property_values')
    .whereIn('repo_id', trx('repositories').where('owner_id', orgId).select('id'))
    .whereNotIn('name', names.length ? names : [''])
    .delete();
  await trx('organization_custom_properties').where('org_id', orgId).whereNotIn('name', names.length ? names : ['']).delete();
  for (const p of properties) {
    const values = {
      value_type: p.value_type,
      required: p.required ? 1 : 0,
      default_value: p.default_value === undefined || p.default_value === null ? null : JSON.stringify(p.default_value),
      allowed_values: p.allowed_values ? JSON.stringify(p.allowed_values) : null,
      description: p.description ?? null,
    };
    await trx('organization_custom_properties').insert({ org_id: orgId, name: p.name, ...values }).onConflict(['org_id', 'name']).merge(Object.keys(values));
  }
}

export async function loadTeams(ctx: SectionContext, teams: World['teams']): Promise<void> {
  const { trx, refs, now } = ctx;
  const ids: number[] = [];
  for (const [i, t] of teams.entries()) {
    const entry = `teams[${i}] "${t.org}/${t.slug}"`;
    const org = await refs.org(entry, t.org);
    const values = defined({
      name: t.name, description: t.description, privacy: t.privacy, notification_setting: t.notification_setting, permission: t.permission,
    });
    const existing = await trx('teams').where({ org_id: org.id, slug: t.slug }).first('id');
    if (existing) {
      if (Object.keys(values).length) await trx('teams').where('id', existing.id).update(values);
      ids.push(Number(existing.id));
    } else {
      const [row] = await trx('teams')
        .insert({ org_id: org.id, slug: t.slug, name: t.slug, privacy: 'closed', notification_setting: 'notifications_enabled', permission: 'pull', ...values, created_at: now, updated_at: now })
        .returning('id');
      ids.push(Number(row.id ?? row));
    }
  }
  // Parents and members once every team of the file exists.
  for (const [i, t] of teams.entries()) {
    const entry = `teams[${i}] "${t.org}/${t.slug}"`;
    const org = await refs.org(entry, t.org);
    const id = ids[i]!;
    if (t.parent !== undefined) {
      let parentId: number | null = null;
      if (t.parent !== null) {
        const parent = await ctx.accounts.findTeamBySlug(trx, org.id, t.parent);
        if (!parent) fail(entry, `parent team "${t.parent}" does not exist in ${t.org}`);
        parentId = parent.id;
      }
      await trx('teams').where('id', id).update({ parent_id: parentId });
    }
    if (t.members !== undefined) {
      const rows: Array<{ user_id: number }> = [];
      for (const login of t.members) {
        const user = await refs.user(entry, login);
        if (!(await trx('organization_members').where({ org_id: org.id, user_id: user.id }).first('user_id'))) {
          fail(entry, `member "${login}" is not a member of the organization ${t.org}`);
        }
        rows.push({ user_id: user.id });
      }
      await replaceSet(trx, 'team_members', { team_id: id }, rows, ['team_id', 'user_id']);
    }
  }
  // Cycles are judged on the end state, once every parent of the file is set.
  for (const [i, t] of teams.entries()) await assertNoCycle(trx, `teams[${i}] "${t.org}/${t.slug}"`, ids[i]!);
}

async function assertNoCycle(trx: Knex.Transaction, entry: string, teamId: number): Promise<void> {
  const seen = new Set<number>();
  for (let at: number | null = teamId; at !== null; ) {
    if (seen.has(at)) fail(entry, 'the parent chain makes a cycle');
    seen.add(at);
    const row: { parent_id: number | null } | undefined = await trx('teams').where('id', at).first('parent_id');
    at = row?.parent_id === undefined || row.parent_id === null ? null : Number(row.parent_id);
  }
}

export async function loadRepositories(ctx: SectionContext, repositories: World['repositories']): Promise<void> {
  const { trx, refs, now } = ctx;
  for (const [i, r] of repositories.entries()) {
    const entry = `repositories[${i}] "${r.owner}/${r.name}"`;
    const owner = await ctx.accounts.findAccountByLogin(trx, r.owner);
    if (!owner) fail(entry, `owner "${r.owner}" does not exist`);
    const values = defined({ name: r.name, private: booleanColumn(r.private), description: r.description, fork: booleanColumn(r.fork), default_branch: r.default_branch });
    const existing = await trx('repositories').where({ owner_id: owner.id, name_key: nameKey(r.name) }).first('id');
    let id: number;
    if (existing) {
      id = Number(existing.id);
      await trx('repositories').where('id', id).update(values);
    } else {
      const [row] = await trx('repositories').insert({ owner_id: owner.id, name_key: nameKey(r.name), ...values, created_at: now, updated_at: now }).returning('id');
      id = Number(row.id ?? row);
    }
    if (r.custom_properties !== undefined) {
      const rows = [];
      for (const [name, value] of Object.entries(r.custom_properties)) {
        if (owner.type === 'Organization' && !(await trx('organization_custom_properties').where({ org_id: owner.id, name }).first('name'))) {
          fail(entry, `custom property "${name}" is not defined for ${r.owner}`);
        }
        rows.push({ name, value: JSON.stringify(value) });
      }
      await replaceSet(trx, 'repository_custom_property_values', { repo_id: id }, rows, ['repo_id', 'name', 'value']);
    }
    if (r.collaborators !== undefined) {
      const rows = [];
      for (const c of r.collaborators) rows.push({ user_id: (await refs.user(entry, c.login)).id, permission: c.permission });
      await replaceSet(trx, 'repository_collaborators', { repo_id: id }, rows, ['repo_id', 'user_id', 'permission']);
    }
    if (r.storage_records !== undefined) {
      await replaceSet(trx, 'repository_storage_records', { repo_id: id }, r.storage_records, ['repo_id', 'artifact_registry', 'artifact_registry_url']);
    }
    if (r.deployment_records !== undefined) {
      const rows = r.deployment_records.map((d) => ({ name: d.name, runtime_risks: JSON.stringify(d.runtime_risks) }));
      await replaceSet(trx, 'repository_deployment_records', { repo_id: id }, rows, ['repo_id', 'name', 'runtime_risks']);
    }
  }
  refs.clear();
}

/** Team repository grants, once teams and repositories both exist. */
export async function loadTeamRepositories(ctx: SectionContext, teams: World['teams']): Promise<void> {
  const { trx, refs } = ctx;
  for (const [i, t] of teams.entries()) {
    if (t.repositories === undefined) continue;
    const entry = `teams[${i}] "${t.org}/${t.slug}"`;
    const org = await refs.org(entry, t.org);
    const team = (await ctx.accounts.findTeamBySlug(trx, org.id, t.slug))!;
    const rows = [];
    for (const grant of t.repositories) rows.push({ repo_id: (await refs.repo(entry, `${t.org}/${grant.name}`)).id, permission: grant.permission });
    await replaceSet(trx, 'team_repositories', { team_id: team.id }, rows, ['team_id', 'repo_id', 'permission']);
  }
}

export async function loadRoles(ctx: SectionContext, roles: World['organization_roles']): Promise<void> {
  for (const [i, r] of roles.entries()) {
    const entry = `organization_roles[${i}] "${r.org}/${r.name}"`;
    const org = await ctx.refs.org(entry, r.org);
    const existing = await ctx.roles.findRoleByName(ctx.trx, org.id, r.name);
    if (existing?.source === 'Predefined') fail(entry, `"${r.name}" is the name of a predefined role`);
    await ctx.roles.upsertCustomRole(ctx.trx, {
      orgId: org.id, name: r.name, description: r.description ?? null, permissions: r.permissions, baseRole: r.base_role ?? null, now: ctx.now,
    });
  }
}

export async function loadRoleAssignments(ctx: SectionContext, assignments: World['role_assignments']): Promise<void> {
  const { trx, refs, roles, now } = ctx;
  for (const [i, a] of assignments.entries()) {
    const entry = `role_assignments[${i}]`;
    const org = await refs.org(entry, a.org);
    // A role is named, or given by id (a number, or digits in a string when no role has that name).
    const byName = typeof a.role === 'string' ? await roles.findRoleByName(trx, org.id, a.role) : undefined;
    const id = typeof a.role === 'number' ? a.role : /^[1-9]\d{0,9}$/.test(a.role) ? Number(a.role) : undefined;
    const role = byName ?? (id === undefined ? undefined : await roles.findRole(trx, org.id, id));
    if (!role) fail(entry, `role "${a.role}" does not exist in ${a.org}`);
    if (a.team !== undefined) {
      const team = await ctx.accounts.findTeamBySlug(trx, org.id, a.team);
      if (!team) fail(entry, `team "${a.team}" does not exist in ${a.org}`);
      await roles.assignTeam(trx, org.id, role.id, team.id, now);
    } else {
      const user = await refs.user(entry, a.user!);
      if (!(await trx('organization_members').where({ org_id: org.id, user_id: user.id }).first('user_id'))) {
        fail(entry, `user "${a.user}" is not a member of ${a.org}`);
      }
      await roles.assignUser(trx, org.id, role.id, user.id, now);
    }
  }
}
