/** Where the browser probe finds Chromium. */
export const CHROMIUM_PATH = '/usr/bin/chromium';
