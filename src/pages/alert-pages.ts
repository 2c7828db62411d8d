import type { KeysetPage } from '../database/keyset';
import type { AlertEventAction } from '../modules/dependency-alerts/alert-events';
import type { AlertHistory, AlertHistoryEntry } from '../modules/dependency-alerts/alert-history';
import type { AlertView } from '../modules/dependency-alerts/alerts.types';
import { htmlUrls } from '../shared/html-urls';
import { identifiersOf, severityOf } from './advisory-page';
import { html, type Html } from './html';
import { facts, type Page } from './page';

// An alert and a repository's alerts, from the same views GraphQL reads (alerts.service.ts).

const userLink = (base: string, login: string) => html`<a href="${htmlUrls.account(base, login)}">${login}</a>`;
const time = (at: string | null) => (at === null ? null : html`<time datetime="${at}">${at}</time>`);

/** Why an alert is no longer open, and who or what closed it. */
function stateFacts(base: string, view: AlertView): Html {
  const { alert } = view;
  return facts([
    ['State', html`<strong>${alert.state.replace('_', ' ')}</strong>`],
    ['Dismissed', time(alert.dismissedAt)],
    ['Dismissed by', view.dismissedBy === null ? null : userLink(base, view.dismissedBy.login)],
    ['Dismissal reason', alert.dismissedReason?.replace('_', ' ')],
    ['Dismissal comment', alert.dismissedComment === null ? null : html`<span class="text">${alert.dismissedComment}</span>`],
    ['Fixed', time(alert.fixedAt)],
    ['Auto-dismissed', time(alert.autoDismissedAt)],
    ['Auto-dismissed by', alert.autoDismissedBy === null ? null : { rule: 'a dependency-bot rule', preset: 'a preset rule', withdrawal: 'the advisory\'s withdrawal' }[alert.autoDismissedBy]],
    ['Assignees', view.assignees.map((user, i) => html`${i > 0 ? ', ' : ''}${userLink(base, user.login)}`)],
    ['Opened', time(alert.createdAt)],
    ['Updated', time(alert.updatedAt)],
  ]);
}

export function alertPage(base: string, view: AlertView, history: AlertHistory): Page {
  const { alert, advisory, repository, vulnerability } = view;
  const repoName = `${repository.ownerLogin}/${repository.name}`;
  return {
    title: `Dependency alert ${alert.number}: ${advisory.summary}`,
    body: html`<p>In <a href="${htmlUrls.repository(base, repository.ownerLogin, repository.name)}">${repoName}</a>
      · <a href="${htmlUrls.repositoryAlerts(base, repository.ownerLogin, repository.name)}">all its alerts</a></p>
    ${stateFacts(base, view)}
    <h2>Advisory</h2>
    ${facts([
      ['Summary', html`<a href="${htmlUrls.advisory(base, advisory.svcsaId)}">${advisory.summary}</a>`],
      ['Severity', severityOf(advisory.severity)],
      ['Identifiers', identifiersOf(advisory)],
      ['Vulnerable versions', vulnerability === null ? null : html`<code>${vulnerability.vulnerableVersionRange}</code>`],
      ['First patched version', vulnerability?.firstPatchedVersion],
    ])}
    <h2>Dependency</h2>
    ${facts([
      ['Package', html`<code>${alert.packageName}</code> (${alert.ecosystem})`],
      ['Manifest', html`<code>${alert.manifestPath}</code>`],
      ['Scope', alert.scope],
      ['Relationship', alert.relationship],
    ])}
    <h2>History</h2>
    ${historyList(base, history)}`,
  };
}

/** What each recorded change did, in words. */
const CHANGES: Record<AlertEventAction, string> = {
  created: 'Opened', dismissed: 'Dismissed', reopened: 'Reopened', fixed: 'Fixed', reintroduced: 'Reintroduced',
  auto_dismissed: 'Auto-dismissed', auto_reopened: 'Auto-reopened', assignees_changed: 'Assignees changed',
};

function changeDetails(entry: AlertHistoryEntry): Html | string {
  if (entry.action === 'dismissed') {
    const reason = entry.dismissedReason?.replace('_', ' ') ?? '';
    return entry.dismissedComment === null ? html` (${reason})` : html` (${reason}: <span class="text">${entry.dismissedComment}</span>)`;
  }
  if (entry.action === 'assignees_changed') return entry.assignees.length === 0 ? ' (none)' : html` (${entry.assignees.join(', ')})`;
  return '';
}

/** The alert's recorded changes, oldest first; an alert a world file declared has none until it changes. */
function historyList(base: string, history: AlertHistory): Html {
  if (history.entries.length === 0) return html`<p>No change recorded: the alert is as it was loaded.</p>`;
  const earlier = history.total - history.entries.length;
  return html`${earlier > 0 ? html`<p>The latest ${history.entries.length} of ${history.total} changes.</p>` : ''}
    <ol class="history">${history.entries.map((entry) => html`
      <li>${time(entry.at)} ${CHANGES[entry.action]} by ${entry.sender === null ? 'dependency-bot[bot]' : userLink(base, entry.sender)}${changeDetails(entry)}</li>`)}
    </ol>`;
}

/** One section of the repository's alerts: a bounded page, and a link to the next one with the API's cursor. */
export interface AlertSection {
  heading: string;
  page: KeysetPage<AlertView>;
  /** The link to the page after this one, when there is one. */
  nextUrl: string | undefined;
}

function alertRows(base: string, views: readonly AlertView[]): Html {
  return html`${views.map(({ alert, advisory, repository }) => html`
        <tr>
          <td><a href="${htmlUrls.alert(base, repository.ownerLogin, repository.name, alert.number)}">${alert.number}</a></td>
          <td><a href="${htmlUrls.alert(base, repository.ownerLogin, repository.name, alert.number)}">${advisory.summary}</a></td>
          <td>${severityOf(advisory.severity)}</td>
          <td><code>${alert.packageName}</code> (${alert.ecosystem})</td>
          <td><code>${alert.manifestPath}</code></td>
          <td>${alert.state.replace('_', ' ')}</td>
          <td><time datetime="${alert.createdAt}">${alert.createdAt}</time></td>
        </tr>`)}`;
}

function alertSection(base: string, section: AlertSection): Html {
  if (section.page.items.length === 0) return html`<h2>${section.heading}</h2><p>None.</p>`;
  return html`<h2>${section.heading}</h2>
    <table>
      <thead><tr><th scope="col">Alert</th><th scope="col">Advisory</th><th scope="col">Severity</th><th scope="col">Package</th><th scope="col">Manifest</th><th scope="col">State</th><th scope="col">Opened</th></tr></thead>
      <tbody>${alertRows(base, section.page.items)}
      </tbody>
    </table>
    ${section.nextUrl === undefined ? '' : html`<p><a rel="next" href="${section.nextUrl}">More ${section.heading.toLowerCase()}</a></p>`}`;
}

export function repositoryAlertsPage(base: string, owner: string, repo: string, sections: readonly AlertSection[]): Page {
  return {
    title: `Dependency alerts of ${owner}/${repo}`,
    body: html`<p><a href="${htmlUrls.repository(base, owner, repo)}">${owner}/${repo}</a></p>
    ${sections.map((section) => alertSection(base, section))}`,
  };
}
