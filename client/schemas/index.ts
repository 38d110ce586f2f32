export * from './iso-codes';
export * from './primitives';
export * from './client';
export * from './line';
export * from './document';
export * from './waybill';
export * from './partner';
export * from './responses';
