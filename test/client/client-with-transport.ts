/** The public client plus the undici transport, for tests that wrap the real transport. */
export * from '../../client';
export { createUndiciTransport } from '../../client/undici-transport';
