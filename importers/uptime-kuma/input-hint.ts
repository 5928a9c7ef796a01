/** What this source accepts, appended to every input error so that people know what to send instead. */
export const INPUT_HINT =
  'Expected the 2.x database file (kuma.db, sent as raw bytes) or a 1.x backup JSON ' +
  '({"version", "notificationList", "monitorList"}). A 2.x install that keeps its data in MariaDB ' +
  'has no database file to read: export a backup instead.';
