// The one HTML escaping rule (the root page and the html_url pages): text put into a page is
// escaped where it is put, so no summary, comment or name can become markup.

/** Markup already escaped: inserted as it is. Only `html` and `trusted` make one. */
export class Html {
  constructor(readonly markup: string) {}

  toString(): string {
    return this.markup;
  }
}

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A value as markup: Html as it is, lists item by item, nothing for null and undefined, anything else as escaped text. */
function markupOf(value: unknown): string {
  if (value instanceof Html) return value.markup;
  if (Array.isArray(value)) return value.map(markupOf).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/** A template whose every interpolated value is escaped unless it is already Html. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let markup = strings[0] ?? '';
  values.forEach((value, i) => {
    markup += markupOf(value) + (strings[i + 1] ?? '');
  });
  return new Html(markup);
}

/** Markup written by this code, never by a user (a constant fragment). */
export const trusted = (markup: string): Html => new Html(markup);

/**
 * A link whose target came from data (an advisory's references): only http and https become
 * links; anything else (javascript:, data:) is shown as text.
 */
export function externalLink(url: string): Html {
  return /^https?:\/\//i.test(url) ? html`<a href="${url}" rel="noreferrer noopener">${url}</a>` : html`<code>${url}</code>`;
}
