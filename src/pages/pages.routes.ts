import { Router, type Request, type Response } from 'express';
import { BadRequestError, NotFoundError } from '../errors/domain';
import { principalOf, servicesOf } from '../http/locals';
import { MAX_CURSOR_LENGTH, MAX_PER_PAGE } from '../http/pagination';
import type { Logger } from '../logger';
import type { AlertFilters } from '../modules/dependency-alerts/alerts.types';
import { HTML_ROUTES } from '../shared/html-urls';
import { appPage, enterprisePage, organizationPage, repositoryPage, teamPage, userPage } from './account-pages';
import { advisoryPage } from './advisory-page';
import { alertPage, repositoryAlertsPage, type AlertSection } from './alert-pages';
import { pageErrors } from './page-errors';
import { pagesBase, sendPage, type Page } from './page';
import { identifyVisitor } from './session';

// The pages every html_url opens (shared/html-urls.ts): GET only, read through the same
// services and authorization as the API, so what the API hides (404) the page hides too.
// Mounted after the API's routes: where a login collides with an API path, the API answers.

/** Alerts a section of the repository's alert page lists at once, unless `per_page` (1 to the API's maximum) says otherwise. */
const ALERTS_PER_SECTION = 25;
/** Alert numbers are positive 32-bit integers; anything else names no alert. */
const ALERT_NUMBER = /^[1-9][0-9]{0,9}$/;
const MAX_ALERT_NUMBER = 2 ** 31 - 1;

/** Open alerts first, then the rest, each paged by the API's own cursor in its own query parameter. */
const ALERT_SECTIONS: ReadonlyArray<{ heading: string; cursorParameter: string; state: NonNullable<AlertFilters['state']> }> = [
  { heading: 'Open alerts', cursorParameter: 'open_after', state: ['open'] },
  { heading: 'Closed alerts', cursorParameter: 'closed_after', state: ['dismissed', 'fixed', 'auto_dismissed'] },
];

function param(req: Request, name: string): string {
  const value = req.params[name];
  if (typeof value !== 'string') throw new NotFoundError();
  return value;
}

function cursorOf(req: Request, name: string): string | undefined {
  const value = req.query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '' || value.length > MAX_CURSOR_LENGTH) throw new BadRequestError(`The ${name} cursor is not valid.`);
  return value;
}

function perPageOf(req: Request): number {
  const value = req.query.per_page;
  if (value === undefined) return ALERTS_PER_SECTION;
  const number = typeof value === 'string' && /^[0-9]{1,3}$/.test(value) ? Number(value) : 0;
  if (number < 1 || number > MAX_PER_PAGE) throw new BadRequestError(`per_page must be an integer from 1 to ${MAX_PER_PAGE}.`);
  return number;
}

/** This page's URL with one cursor moved on (the other kept). */
function withCursor(req: Request, res: Response, name: string, cursor: string): string {
  const url = new URL(req.originalUrl, new URL(pagesBase(res)).origin);
  url.searchParams.set(name, cursor);
  return url.toString();
}

async function repositoryAlerts(req: Request, res: Response): Promise<Page> {
  const [owner, repo] = [param(req, 'owner'), param(req, 'repo')];
  const alerts = servicesOf(res).dependencyAlerts;
  const sections: AlertSection[] = [];
  const perPage = perPageOf(req);
  for (const { heading, cursorParameter, state } of ALERT_SECTIONS) {
    const request = { filters: { state }, sort: 'created' as const, direction: 'desc' as const, perPage, after: cursorOf(req, cursorParameter) };
    const page = await alerts.listForRepo(principalOf(res), owner, repo, request, alerts.views);
    sections.push({ heading, page, nextUrl: page.next === undefined ? undefined : withCursor(req, res, cursorParameter, page.next) });
  }
  return repositoryAlertsPage(pagesBase(res), owner, repo, sections);
}

async function alert(req: Request, res: Response): Promise<Page> {
  const number = param(req, 'number');
  if (!ALERT_NUMBER.test(number) || Number(number) > MAX_ALERT_NUMBER) throw new NotFoundError();
  const alerts = servicesOf(res).dependencyAlerts;
  const { view, history } = await alerts.get(principalOf(res), param(req, 'owner'), param(req, 'repo'), Number(number), alerts.viewsWithHistory);
  return alertPage(pagesBase(res), view, history);
}

async function repository(req: Request, res: Response): Promise<Page> {
  const repo = await servicesOf(res).accounts.visibleRepository(principalOf(res), param(req, 'owner'), param(req, 'repo'));
  if (!repo) throw new NotFoundError();
  return repositoryPage(pagesBase(res), repo);
}

/** `/{login}`: an organization the caller may see, else a user (profiles are public). */
async function account(req: Request, res: Response): Promise<Page> {
  const accounts = servicesOf(res).accounts;
  const login = param(req, 'login');
  const org = await accounts.visibleOrganization(principalOf(res), login);
  return org ? organizationPage(org) : userPage(await accounts.getUser(principalOf(res), login));
}

async function team(req: Request, res: Response): Promise<Page> {
  const { org, team, parent } = await servicesOf(res).accounts.readableTeam(principalOf(res), param(req, 'org'), param(req, 'slug'));
  return teamPage(pagesBase(res), org, team, parent);
}

async function enterprise(req: Request, res: Response): Promise<Page> {
  const found = await servicesOf(res).accounts.visibleEnterprise(principalOf(res), param(req, 'slug'));
  if (!found) throw new NotFoundError();
  return enterprisePage(found);
}

async function advisory(req: Request, res: Response): Promise<Page> {
  return advisoryPage(await servicesOf(res).advisories.get(principalOf(res), param(req, 'svcsaId')));
}

/** The pages, most specific path first: `/enterprises/acme` is the enterprise, not a repository named acme. */
const PAGES: ReadonlyArray<[path: string, build: (req: Request, res: Response) => Promise<Page>]> = [
  [HTML_ROUTES.app, async () => appPage()],
  [HTML_ROUTES.enterprise, enterprise],
  [HTML_ROUTES.team, team],
  [HTML_ROUTES.advisory, advisory],
  [HTML_ROUTES.alert, alert],
  [HTML_ROUTES.repositoryAlerts, repositoryAlerts],
  [HTML_ROUTES.repository, repository],
  [HTML_ROUTES.account, account],
];

export function pageRoutes(logger: Logger): Router {
  const router = Router();
  for (const [path, build] of PAGES) {
    router.get(path, identifyVisitor, async (req, res) => sendPage(res, 200, await build(req, res)));
  }
  router.use(pageErrors(logger));
  return router;
}
