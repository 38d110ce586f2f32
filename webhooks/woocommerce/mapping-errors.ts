/** One decision the mapper took, shown to the shop owner on the order ("NIF 123 invalid: consumer NIF used"). */
export interface MappingNote {
  level: 'info' | 'warning' | 'error';
  message: string;
}

/**
 * The order (or refund) cannot become a document as it stands. The message names the order and the
 * problem, because it ends up as an order note in the shop and in the connector's dead-letter list.
 */
export class OrderMappingError extends Error {
  override readonly name = 'OrderMappingError';
  constructor(
    readonly orderId: number | string | undefined,
    readonly problem: string,
  ) {
    super(orderId === undefined ? problem : `Order #${orderId}: ${problem}`);
  }
}

export function info(message: string): MappingNote {
  return { level: 'info', message };
}

export function warning(message: string): MappingNote {
  return { level: 'warning', message };
}
