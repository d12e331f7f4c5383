/**
 * `createSimulator`: a stand-in for the point-of-sale cloud service on 127.0.0.1, with a seeded
 * tenant, the spec's endpoints, gap switches and fault knobs, for tests, examples and benchmarks.
 */
import type { Server } from 'node:http';
import { SimClock } from './clock.js';
import { Faults, type FaultOptions } from './http/faults.js';
import { RequestLog } from './http/request-log.js';
import { RequestsUnderWay } from './http/requests-under-way.js';
import { startServer, type ServerState } from './http/server.js';
import { resolveFaults, resolveOptions, resolveToken, type SimulatorOptions } from './options.js';
import { Rng } from './rng.js';
import { resolveSize } from './size.js';
import { SimStore } from './store/sim-store.js';
import { applySwitches, type SwitchOptions, type Switches } from './switches.js';
import { generateTenant } from './tenant/generate-tenant.js';

/** A running simulator. */
export interface Simulator {
  /** `http://<host>:<port><basePath>`: what clients use as `{base_url}`. */
  readonly baseUrl: string;
  /** The API token (send `Authorization: A|<token>`); `setToken` replaces it. */
  readonly token: string;
  /** The port it listens on. */
  readonly port: number;
  /** The data behind the API. */
  readonly store: SimStore;
  /** What reached the server. */
  readonly requests: RequestLog;
  /** The gap switches now in force. */
  readonly options: Readonly<Switches>;
  /** The fault knobs now in force. */
  readonly faults: Readonly<Required<FaultOptions>>;
  /** Replaces every fault knob (`setFaults({})` turns all faults off). */
  setFaults(faults: FaultOptions): void;
  /** Changes some gap switches; the others keep their values. */
  setOptions(changes: SwitchOptions): void;
  /**
   * Revokes the token and accepts only `token` from the next request on (the old one gets 401),
   * as a service does when an API token is replaced. A token that is not visible ASCII is a
   * ValidationError.
   */
  setToken(token: string): void;
  /**
   * Resolves once no request is being handled. A request its client gave up on (an abort, a
   * time limit) is still handled, and a POST still applied, after its latency: this waits for it.
   */
  idle(): Promise<void>;
  /** Stops activity, closes every connection and the server. */
  close(): Promise<void>;
}

/**
 * Starts a simulator. Resolves once it listens. Options are validated first (ValidationError
 * naming each bad one); the tenant is generated from the seed, clock start and size.
 */
export async function createSimulator(opts: SimulatorOptions = {}): Promise<Simulator> {
  const o = resolveOptions(opts);
  const counts = resolveSize(o.size);
  const clock = new SimClock(o.clockStart);
  const tenant = generateTenant(o.seed, o.clockStart, counts);
  const store = new SimStore(tenant, clock, Rng.of(o.seed, 0x5a1e5));
  const requests = new RequestLog(o.logSize);
  const faults = new Faults(o.seed, o.faults);
  let switches = o.switches;
  const state: ServerState = { store, token: o.token, basePath: o.basePath, switches: () => switches, faults, log: requests, underWay: new RequestsUnderWay() };
  const { server, port } = await startServer(state, o.host, o.port);
  if (o.activity) store.startActivity(o.activity);
  const hostPart = o.host.includes(':') ? `[${o.host}]` : o.host;
  let closed: Promise<void> | undefined;
  return {
    baseUrl: `http://${hostPart}:${port}${o.basePath}`,
    get token() {
      return state.token;
    },
    port,
    store,
    requests,
    get options() {
      return switches;
    },
    get faults() {
      return faults.options;
    },
    setFaults(next) {
      faults.set(resolveFaults(next));
    },
    setOptions(changes) {
      switches = applySwitches(switches, changes);
    },
    setToken(token) {
      state.token = resolveToken(token);
    },
    idle() {
      return state.underWay.idle();
    },
    close() {
      closed ??= closeServer(server, () => store.stopActivity());
      return closed;
    },
  };
}

async function closeServer(server: Server, beforeClose: () => void): Promise<void> {
  beforeClose();
  await new Promise<void>((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}
