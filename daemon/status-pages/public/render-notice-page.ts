import { markup, raw } from '../../markup.js';
import { STATUS_PAGE_CSS } from './status-page-style.js';

/** What a small page about a subscription says, and the button that acts, when there is one. */
export interface Notice {
  heading: string;
  text: string;
  /** A form that posts to `action` (the page's own address) with one button. */
  form?: { action: string; button: string };
  /** Back to the status page. */
  pageLink?: string;
}

/**
 * A small page in the status page's style: asking to confirm or to unsubscribe (a button, since
 * mail scanners follow links but do not press buttons), or telling what happened.
 */
export function renderNoticePage(notice: Notice): string {
  return markup`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark"><link rel="icon" href="data:,"><meta name="robots" content="noindex"><title>${notice.heading}</title><style>${raw(STATUS_PAGE_CSS)}</style></head>
<body><main><h1>${notice.heading}</h1><p>${notice.text}</p>
${notice.form ? markup`<form method="post" action="${notice.form.action}"><button type="submit">${notice.form.button}</button></form>` : ''}
${notice.pageLink ? markup`<p><a href="${notice.pageLink}">Back to the status page</a></p>` : ''}
</main></body>
</html>
`.toString();
}
