import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from './harness';
import { exited } from './worker-process';

/**
 * Tests that kill, restart or cluster Redis start their own `redis-server` processes on free loopback
 * ports (never the shared 127.0.0.1:6379), each with its own temporary directory.
 */
export function redisServerAvailable(): boolean {
  return spawnSync('redis-server', ['--version']).status === 0;
}

export async function sparePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

/** `describe` when redis-server is on this machine, else `describe.skip` with the reason on stderr. */
export function describeWithRedisServer(file: string, what: string): jest.Describe {
  if (redisServerAvailable()) return describe;
  process.stderr.write(`${file}: redis-server binary missing, ${what} skipped\n`);
  return describe.skip;
}

export interface OwnRedisServer {
  port: number;
  dir: string;
  process: ChildProcess | undefined;
  /** (Re)starts the server with the same port, directory and arguments; resolves once it answers PING. */
  start(): Promise<void>;
  /** `redis-cli shutdown` (with or without saving) and waits for the process to exit. */
  stop(mode?: 'save' | 'nosave'): Promise<void>;
  /** Stops it for good and removes its directory. */
  destroy(): Promise<void>;
}

/** With `tls`, the server listens with TLS only (its port is the TLS port), the certificate its own CA. */
export async function ownRedisServer(extraArgs: string[] = [], tls?: { certFile: string; keyFile: string }): Promise<OwnRedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'mf-redis-'));
  const port = await sparePort();
  const cliArgs = tls ? ['--tls', '--cacert', tls.certFile] : [];
  if (tls) extraArgs = [...extraArgs, '--port', '0', '--tls-port', String(port), '--tls-cert-file', tls.certFile, '--tls-key-file', tls.keyFile, '--tls-ca-cert-file', tls.certFile, '--tls-auth-clients', 'no'];
  const server: OwnRedisServer = {
    port,
    dir,
    process: undefined,
    async start() {
      server.process = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--dir', dir, ...extraArgs], { stdio: 'ignore' });
      await eventually(`redis-server on port ${port} up`, () => spawnSync('redis-cli', ['-p', String(port), ...cliArgs, 'ping']).stdout?.toString().includes('PONG'));
    },
    async stop(mode = 'save') {
      spawnSync('redis-cli', ['-p', String(port), ...cliArgs, 'shutdown', ...(mode === 'nosave' ? ['nosave'] : [])]);
      if (server.process) await exited(server.process);
    },
    async destroy() {
      await server.stop('nosave');
      server.process?.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await server.start();
  return server;
}

export interface OwnRedisCluster {
  nodes: OwnRedisServer[];
  /** Seed URLs, comma-separated, as the connector's redis.url takes them. */
  url: string;
  destroy(): Promise<void>;
}

/** A Redis Cluster of `masters` masters (no replicas) on loopback ports, slots spread by `redis-cli --cluster create`. */
export async function ownRedisCluster(masters = 3): Promise<OwnRedisCluster> {
  const nodes: OwnRedisServer[] = [];
  const destroy = async () => {
    for (const node of nodes) await node.destroy();
  };
  try {
    for (let i = 0; i < masters; i++) nodes.push(await ownRedisServer(['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf', '--cluster-node-timeout', '5000', '--appendonly', 'no']));
    const create = spawnSync('redis-cli', ['--cluster', 'create', ...nodes.map((n) => `127.0.0.1:${n.port}`), '--cluster-replicas', '0', '--cluster-yes'], { encoding: 'utf8' });
    if (create.status !== 0) throw new Error(`redis-cli --cluster create failed: ${create.stdout}${create.stderr}`);
    await eventually('cluster state ok on every node', () =>
      nodes.every((n) => spawnSync('redis-cli', ['-p', String(n.port), 'cluster', 'info'], { encoding: 'utf8' }).stdout.includes('cluster_state:ok')),
    );
  } catch (error) {
    await destroy();
    throw error;
  }
  return { nodes, url: nodes.map((n) => `redis://127.0.0.1:${n.port}`).join(','), destroy };
}

/** A self-signed certificate for 127.0.0.1 and localhost (openssl), or null where openssl is missing. */
export function selfSignedCertificate(dir: string): { certFile: string; keyFile: string } | null {
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'], { stdio: 'ignore' });
  return made.status === 0 ? { certFile, keyFile } : null;
}
