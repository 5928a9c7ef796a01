/**
 * The worker of pattern-matcher.ts: matches one address against patterns, each bounded by a vm
 * timeout, reporting each pattern's outcome as soon as it is known.
 */
import vm from 'node:vm';
import { serveWorker } from '../workers/serve-worker.js';
import type { PatternJob, PatternProgress } from './pattern-matcher.js';

const context = vm.createContext(Object.create(null));
const test = new vm.Script('new RegExp(pattern, flags).test(email)');

serveWorker<PatternJob, null, PatternProgress>(({ email, patterns, flags, perPatternMs }, progress) => {
  for (let index = 0; index < patterns.length; index++) {
    context.pattern = patterns[index];
    context.flags = flags;
    context.email = email;
    let outcome: PatternProgress['outcome'];
    try {
      outcome = test.runInContext(context, { timeout: perPatternMs }) === true ? 'match' : 'no-match';
    } catch (error) {
      outcome = (error as { code?: string })?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT' ? 'timeout' : 'invalid';
    }
    progress({ index, outcome });
  }
  return null;
});
