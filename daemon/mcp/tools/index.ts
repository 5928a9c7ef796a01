import type { McpTool } from '../tool.js';
import { getCheckTypeSampleTool, listCheckTypesTool } from './catalog-tools.js';
import { getCheckTool, listChecksTool } from './check-read-tools.js';
import { createCheckTool, deleteCheckTool, updateCheckTool } from './check-write-tools.js';
import { listIncidentsTool } from './incident-tools.js';
import { validateCheckTool } from './validate-check.js';
import { getCheckResultsTool, runCheckTool } from './check-run-tools.js';

/** Every MCP tool, in the order `tools/list` shows them: the way an agent builds a check. */
export const MCP_TOOLS: readonly McpTool<any, any>[] = [
  listCheckTypesTool,
  getCheckTypeSampleTool,
  validateCheckTool,
  createCheckTool,
  listChecksTool,
  getCheckTool,
  updateCheckTool,
  deleteCheckTool,
  listIncidentsTool,
  getCheckResultsTool,
  runCheckTool,
];
