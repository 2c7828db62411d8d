import type { EnterpriseRecord, OrganizationRecord, RepositoryRecord, TeamRecord, UserRecord } from '../modules/accounts/accounts.types';
import { htmlUrls } from '../shared/html-urls';
import { html } from './html';
import { facts, type Page } from './page';

// The small pages: enough to say what a user, organization, team, enterprise, repository or
// the app is, and where to go next; what the API answers about them stays in the API.

export function organizationPage(org: OrganizationRecord): Page {
  return {
    title: org.login,
    body: html`<p>Organization.</p>${facts([['Login', org.login], ['Description', org.description]])}`,
  };
}

export function userPage(user: UserRecord): Page {
  return {
    title: user.login,
    body: html`<p>User.</p>${facts([['Login', user.login], ['Site administrator', user.siteAdmin ? 'yes' : null]])}`,
  };
}

export function teamPage(base: string, org: OrganizationRecord, team: TeamRecord, parent: TeamRecord | undefined): Page {
  return {
    title: `${org.login} / ${team.name}`,
    body: html`<p>Team of <a href="${htmlUrls.account(base, org.login)}">${org.login}</a>.</p>${facts([
      ['Name', team.name],
      ['Slug', team.slug],
      ['Description', team.description],
      ['Privacy', team.privacy],
      ['Parent team', parent === undefined ? null : html`<a href="${htmlUrls.team(base, org.login, parent.slug)}">${parent.name}</a>`],
    ])}`,
  };
}

export function enterprisePage(enterprise: EnterpriseRecord): Page {
  return { title: enterprise.name, body: html`<p>Enterprise.</p>${facts([['Name', enterprise.name], ['Slug', enterprise.slug]])}` };
}

export function repositoryPage(base: string, repo: RepositoryRecord): Page {
  return {
    title: `${repo.ownerLogin}/${repo.name}`,
    body: html`${facts([
      ['Owner', html`<a href="${htmlUrls.account(base, repo.ownerLogin)}">${repo.ownerLogin}</a>`],
      ['Name', repo.name],
      ['Visibility', repo.isPrivate ? 'private' : 'public'],
      ['Description', repo.description],
      ['Fork', repo.fork ? 'yes' : null],
    ])}
    <p><a href="${htmlUrls.repositoryAlerts(base, repo.ownerLogin, repo.name)}">Dependency alerts</a></p>`,
  };
}

export function appPage(): Page {
  return {
    title: 'dependency-bot',
    body: html`<p>The alert engine of this orgsec instance. It opens, fixes and auto-dismisses dependency alerts when
      dependency snapshots or advisories change, and is the sender of the webhook events it causes.</p>`,
  };
}
