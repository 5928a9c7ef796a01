import { checkTypeNames } from '../checks/index.js';
import { ROLES } from '../contract/access.js';
import { IMPORT_SOURCE_DESCRIPTIONS, IMPORT_SOURCES } from '../contract/import-sources.js';
import type { CheckState } from '../contract/responses.js';

// The fixed sets of values that completion offers after an option or as an argument. The check
// states and channel types are the daemon's; the CLI may not import the daemon, so they are
// listed here and a test compares them with the daemon's lists.

/** Check states, in the order the API documents them. */
export const CHECK_STATE_VALUES = ['pending', 'up', 'degraded', 'down', 'paused'] as const satisfies readonly CheckState[];

/** Notification channel types `svc channels create --type` accepts. */
export const CHANNEL_TYPE_VALUES = ['email', 'webhook', 'slack', 'discord', 'teams', 'telegram', 'pagerduty', 'opsgenie', 'googlechat', 'mattermost', 'ntfy', 'pushover'] as const;

/** Import sources and, as their aliases, the tools they come from. */
const IMPORT_SOURCE_VALUES = [...IMPORT_SOURCES, ...IMPORT_SOURCES.map((source) => IMPORT_SOURCE_DESCRIPTIONS[source].tool)];

/** Per command path, the values of an option's argument. */
export const OPTION_VALUES: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  'checks list': { '--state': CHECK_STATE_VALUES, '--type': checkTypeNames },
  'channels create': { '--type': CHANNEL_TYPE_VALUES },
  import: { '--source': IMPORT_SOURCE_VALUES },
  'members invite': { '--role': ROLES },
};

/** Per command path, values offered for its arguments beyond the first one's declared choices. */
export const ARGUMENT_VALUES: Readonly<Record<string, readonly string[]>> = {
  'members set-role': ROLES,
};
