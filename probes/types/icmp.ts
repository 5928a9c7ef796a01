import { spawn } from 'node:child_process';
import { defineProbe, ProbeFailure } from '../probe.js';

// ICMP needs a raw (or "ping") socket: opening one takes root or CAP_NET_RAW, which the daemon
// should not hold. Debian's `ping` (iputils-ping) carries cap_net_raw itself, so the probe runs
// it as a child process, bounded by the run's deadline, and reads its summary.

const SUMMARY = /(\d+) packets transmitted, (\d+) received/;
const RTT = /= [\d.]+\/([\d.]+)\/[\d.]+\/[\d.]+ ms/;
const ICMP_ERROR = /^From (\S+) icmp_seq=\d+ (.+)$/m;

/** Runs ping, killed when the signal aborts; resolves with its exit code and output. */
function ping(args: string[], signal: AbortSignal): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('ping', args, { signal, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH, LC_ALL: 'C' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', (error) => reject(signal.aborted ? signal.reason : error));
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * The ICMP probe: `count` echo requests of `packetSize` bytes to the address the egress policy
 * allowed; up on the first reply. The latency is ping's average round-trip time, not the time
 * it took to start a process.
 */
export const icmpProbe = defineProbe({
  type: 'icmp',
  async run(check, context) {
    const { config } = check;
    const { address, family } = await context.egress.resolve(check.target);
    const deadlineSeconds = String(Math.max(1, Math.ceil(context.timeoutMs / 1000)));
    const args = ['-n', `-${family}`, '-c', String(config.count), '-s', String(config.packetSize), '-i', '0.2', '-w', deadlineSeconds, address];
    const { code, stdout, stderr } = await ping(args, context.signal);
    const summary = SUMMARY.exec(stdout);
    const received = summary ? Number(summary[2]) : 0;
    if (received === 0) {
      const icmpError = ICMP_ERROR.exec(stdout);
      if (icmpError) throw new ProbeFailure(`${icmpError[2]} (from ${icmpError[1]})`);
      if (summary) throw new ProbeFailure(`no reply from ${address} (${summary[1]} sent)`);
      const reason = stderr.trim().split('\n')[0] || `ping exited with ${code}`;
      throw new ProbeFailure(reason.replace(/^ping: /, ''));
    }
    const rtt = RTT.exec(stdout);
    const average = rtt ? Number(rtt[1]) : undefined;
    return {
      message: `${received}/${summary![1]} replies from ${address}${average === undefined ? '' : `, rtt avg ${average} ms`}`,
      ...(average === undefined ? {} : { latencyMs: average }),
    };
  },
});
