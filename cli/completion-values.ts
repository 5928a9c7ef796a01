import { checkTypeNames } from '../checks/index.js';
import { ROLES } from '../contract/access.js';
import { IMPORT_SOURCE_DESCRIPTIONS, IMPORT_SOURCES } from '../contract/import-sources.js';
import { CHANNEL_TYPES } from '../contract/notification-channels.js';
import { CHECK_STATES } from '../contract/states.js';

// The fixed sets of values that completion offers after an option or as an argument, all read
// from the contract and the check catalog, so they cannot drift from what the daemon accepts.

/** Check states, in the order the API documents them. */
export const CHECK_STATE_VALUES = CHECK_STATES;

/** Notification channel types `svc channels create --type` accepts. */
export const CHANNEL_TYPE_VALUES = CHANNEL_TYPES;

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
