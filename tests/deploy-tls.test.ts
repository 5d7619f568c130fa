/** TLS settings carry real connections. No TLS endpoint runs here, so this test puts TLS-terminating proxies, with
 * a throwaway CA, in front of the local Temporal and PostgreSQL:
 *  - Temporal: mTLS that demands a client certificate, and checks the server name given by
 *    DEBUGRL_TEMPORAL_TLS_SERVER_NAME;
 *  - PostgreSQL: the SSLRequest handshake, then TLS, checked with sslmode=verify-full and DEBUGRL_DATABASE_SSL_CA.
 * The clients connect with exactly what common/connections.ts builds from the config. */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as tls from 'node:tls';
import { Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { Client } from 'pg';
import { loadConfig } from '../common/config';
import { pgConnectionString, temporalConnectionOptions } from '../common/connections';
import { config as local } from './helpers/services';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'debugrl-tls-'));
const f = (name: string) => path.join(dir, name);
const SERVER_NAME = 'temporal.debugrl.test';

function openssl(...args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe', timeout: 30_000 });
}

/** A CA, a server certificate for SERVER_NAME and localhost, a client certificate, and an unrelated CA. */
function makeCertificates(): void {
  const key = (name: string) => openssl('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', f(name));
  for (const ca of ['ca', 'other-ca']) {
    key(`${ca}.key`);
    openssl('req', '-x509', '-new', '-key', f(`${ca}.key`), '-subj', `/CN=${ca}`, '-days', '2', '-out', f(`${ca}.pem`));
  }
  const sign = (name: string, cn: string, ext: string) => {
    key(`${name}.key`);
    openssl('req', '-new', '-key', f(`${name}.key`), '-subj', `/CN=${cn}`, '-out', f(`${name}.csr`));
    fs.writeFileSync(f(`${name}.ext`), ext);
    openssl('x509', '-req', '-in', f(`${name}.csr`), '-CA', f('ca.pem'), '-CAkey', f('ca.key'), '-CAcreateserial', '-days', '2', '-extfile', f(`${name}.ext`), '-out', f(`${name}.pem`));
  };
  sign('server', SERVER_NAME, `subjectAltName=DNS:${SERVER_NAME},DNS:localhost\nextendedKeyUsage=serverAuth\n`);
  sign('client', 'debugrl-harness-7', 'extendedKeyUsage=clientAuth\n');
}

function listen(server: net.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)));
}

const [localHost, localPort] = local.DEBUGRL_TEMPORAL_ADDRESS.split(':');
const pgUrl = new URL(local.DEBUGRL_DATABASE_URL);

describe('TLS to Temporal and PostgreSQL through proxies', () => {
  const servers: net.Server[] = [];
  const sockets = new Set<net.Socket>();
  const clientNames: string[] = [];
  let temporalPort = 0;
  let pgPort = 0;

  beforeAll(async () => {
    makeCertificates();
    const serverOptions = { key: fs.readFileSync(f('server.key')), cert: fs.readFileSync(f('server.pem')) };
    // Temporal: mTLS with a client certificate signed by our CA, HTTP/2 (gRPC) passed through to the plain server.
    const temporal = tls.createServer({ ...serverOptions, ca: fs.readFileSync(f('ca.pem')), requestCert: true, rejectUnauthorized: true, ALPNProtocols: ['h2'] }, (s) => {
      clientNames.push(String(s.getPeerCertificate().subject?.CN));
      const up = net.connect(Number(localPort), localHost);
      sockets.add(s).add(up);
      s.pipe(up).pipe(s);
      s.on('error', () => up.destroy());
      up.on('error', () => s.destroy());
    });
    temporal.on('tlsClientError', () => undefined);
    // PostgreSQL: answer the 8-byte SSLRequest with 'S', then speak TLS and pass the protocol through.
    const pg = net.createServer((raw) => {
      sockets.add(raw);
      raw.once('data', (first) => {
        if (first.length !== 8 || first.readUInt32BE(4) !== 80877103) return raw.destroy();
        raw.write('S');
        const s = new tls.TLSSocket(raw, { isServer: true, ...serverOptions });
        const up = net.connect(Number(pgUrl.port), pgUrl.hostname);
        sockets.add(up);
        s.pipe(up).pipe(s);
        s.on('error', () => up.destroy());
        up.on('error', () => s.destroy());
      });
      raw.on('error', () => undefined);
    });
    servers.push(temporal, pg);
    [temporalPort, pgPort] = await Promise.all([listen(temporal), listen(pg)]);
  });

  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const temporalEnv = (extra: Record<string, string>) =>
    loadConfig({ DEBUGRL_TEMPORAL_ADDRESS: `127.0.0.1:${temporalPort}`, DEBUGRL_TEMPORAL_NAMESPACE: local.DEBUGRL_TEMPORAL_NAMESPACE, DEBUGRL_TEMPORAL_TLS_CA: f('ca.pem'), DEBUGRL_TEMPORAL_TLS_SERVER_NAME: SERVER_NAME, ...extra });

  it('the client and the worker connection reach Temporal over mTLS, presenting the configured certificate', async () => {
    const c = temporalEnv({ DEBUGRL_TEMPORAL_TLS_CERT: f('client.pem'), DEBUGRL_TEMPORAL_TLS_KEY: f('client.key') });
    const client = await Connection.connect({ ...temporalConnectionOptions(c), connectTimeout: 10_000 });
    try {
      const ns = await client.workflowService.describeNamespace({ namespace: c.DEBUGRL_TEMPORAL_NAMESPACE });
      expect(ns.namespaceInfo?.name).toBe(c.DEBUGRL_TEMPORAL_NAMESPACE);
    } finally {
      await client.close();
    }
    const before = clientNames.length;
    const worker = await NativeConnection.connect(temporalConnectionOptions(c));
    await worker.close();
    expect(clientNames.length).toBeGreaterThan(before);
    expect(new Set(clientNames)).toEqual(new Set(['debugrl-harness-7']));
  });

  it('without the client certificate, with the wrong CA, or without the server name, the connection is refused', async () => {
    await expect(Connection.connect({ ...temporalConnectionOptions(temporalEnv({})), connectTimeout: 5_000 })).rejects.toThrow();
    const wrongCa = temporalEnv({ DEBUGRL_TEMPORAL_TLS_CERT: f('client.pem'), DEBUGRL_TEMPORAL_TLS_KEY: f('client.key'), DEBUGRL_TEMPORAL_TLS_CA: f('other-ca.pem') });
    await expect(Connection.connect({ ...temporalConnectionOptions(wrongCa), connectTimeout: 5_000 })).rejects.toThrow();
    // The server's certificate names SERVER_NAME, not 127.0.0.1: without DEBUGRL_TEMPORAL_TLS_SERVER_NAME it fails.
    const byAddress = temporalEnv({ DEBUGRL_TEMPORAL_TLS_CERT: f('client.pem'), DEBUGRL_TEMPORAL_TLS_KEY: f('client.key') });
    delete byAddress.DEBUGRL_TEMPORAL_TLS_SERVER_NAME;
    await expect(Connection.connect({ ...temporalConnectionOptions(byAddress), connectTimeout: 5_000 })).rejects.toThrow();
  });

  const pgConfig = (ca: string) => {
    const url = new URL(local.DEBUGRL_DATABASE_URL);
    // A host name, not an IP: node-postgres sends no server name for an IP host, and Node then checks the
    // certificate against "localhost" (docs/deploy.md). localhost resolves to 127.0.0.1 here.
    url.host = `localhost:${pgPort}`;
    url.search = '';
    return loadConfig({ DEBUGRL_DATABASE_URL: url.toString(), DEBUGRL_DATABASE_SSL_CA: ca });
  };

  it('PostgreSQL answers over TLS checked with sslmode=verify-full and DEBUGRL_DATABASE_SSL_CA', async () => {
    const client = new Client({ connectionString: pgConnectionString(pgConfig(f('ca.pem'))) });
    await client.connect();
    try {
      expect((await client.query('select 41 + 1 as n')).rows).toEqual([{ n: 42 }]);
      expect((client as unknown as { connection: { stream: unknown } }).connection.stream).toBeInstanceOf(tls.TLSSocket);
    } finally {
      await client.end();
    }
  });

  it('PostgreSQL with another CA fails the certificate check', async () => {
    const client = new Client({ connectionString: pgConnectionString(pgConfig(f('other-ca.pem'))) });
    client.on('error', () => undefined);
    await expect(client.connect()).rejects.toThrow(/self[- ]signed|unable to (get|verify)/i);
  });
});
