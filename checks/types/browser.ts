import { z } from 'zod';
import { defineCheckType } from '../check-type.js';
import { expectedStatusCodes, ignoreTlsErrors, invert, keyword } from '../fields.js';
import { urlTarget } from '../targets.js';

/** A page loaded in a headless browser. */
export const browserCheck = defineCheckType({
  type: 'browser',
  title: 'Browser page load',
  description:
    'Loads a page in a headless browser; the check succeeds when the page loads with an accepted status ' +
    '(and its rendered text contains the keyword, when one is set).',
  target: urlTarget(['http', 'https'], 'The page URL.', 'https://example.com/'),
  config: z.strictObject({
    waitUntil: z.enum(['load', 'domcontentloaded', 'networkidle']).default('load').describe('When the page counts as loaded.'),
    expectedStatusCodes,
    keyword: keyword.optional().describe('Text the rendered page must contain (or must not contain).'),
    ignoreTlsErrors,
    invert,
  }),
  sample: {
    name: 'Checkout page',
    target: 'https://shop.example.com/checkout',
    config: { keyword: { value: 'Place order' }, waitUntil: 'networkidle' },
  },
});
