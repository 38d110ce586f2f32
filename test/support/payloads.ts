import { z } from 'zod';
import { CreateDocumentRequestSchema, type CreateDocumentRequestInput } from '../../client/schemas/document';
import { MappingSettingsSchema, type MappingSettingsInput } from '../../law/mapping-settings';
import type { WooOrderInput, WooRefundInput } from '../../platforms/woocommerce/documents';
import { parseWooOrder, parseWooRefund, WooMetaSchema, WooOrderSchema, WooRefundSchema } from '../../platforms/woocommerce/order-schema';
import type { JsonObject } from './fake-woocommerce';

/**
 * The tests' payloads (WooCommerce fixtures on disk, carts built by test/law/support/woo-cart.ts,
 * orders the fake shop stores, settings, document requests), checked against the schemas the connector parses them with and
 * typed by them. A payload that no longer fits fails here, loudly, with the connector's own error
 * naming the refused fields, instead of reaching the code under test through a cast.
 *
 * The payload is handed on as it was given (the code under test parses it itself), typed as the
 * schema's input.
 */

/** Whether `value` is what `schema` accepts: a type guard over the schema's input type. */
function fits<S extends z.ZodType>(schema: S, value: unknown): value is z.input<S> {
  return schema.safeParse(value).success;
}

/** Throws the connector's own error (parse) when the schema refuses the payload; else the payload, typed. */
function checked<S extends z.ZodType>(schema: S, payload: unknown, parse: (payload: unknown) => unknown): z.input<S> {
  parse(payload);
  if (!fits(schema, payload)) throw new Error(`the payload does not fit the schema: ${JSON.stringify(payload).slice(0, 200)}`);
  return payload;
}

/** A WooCommerce order payload (REST v3, as webhooks deliver it). */
export function wooOrder(payload: unknown): WooOrderInput {
  return checked(WooOrderSchema, payload, parseWooOrder);
}

/** A WooCommerce refund payload. */
export function wooRefund(payload: unknown): WooRefundInput {
  return checked(WooRefundSchema, payload, parseWooRefund);
}

/** Several refunds (an order's earlier ones). */
export function wooRefunds(payloads: readonly unknown[]): WooRefundInput[] {
  return payloads.map(wooRefund);
}

const WooMetaListSchema = z.array(WooMetaSchema);

/** An order's meta_data as the shop keeps it. */
export function wooMeta(payload: unknown): z.input<typeof WooMetaListSchema> {
  return checked(WooMetaListSchema, payload, (list) => WooMetaListSchema.parse(list));
}

const JsonObjectSchema = z.record(z.string(), z.json());

/** JSON the fake shop stores and serves: a plain object of JSON values. */
function json(payload: unknown): JsonObject {
  return checked(JsonObjectSchema, payload, (value) => JsonObjectSchema.parse(value));
}

/** A WooCommerce order for the fake shop: an order the connector can parse, as JSON. */
export function wooOrderJson(payload: unknown): JsonObject {
  wooOrder(payload);
  return json(payload);
}

/** A WooCommerce refund for the fake shop: a refund the connector can parse, as JSON. */
export function wooRefundJson(payload: unknown): JsonObject {
  wooRefund(payload);
  return json(payload);
}

/** The mapping's settings as a tenant writes them (checked against the settings' schema). */
export function mappingSettings(input: unknown): MappingSettingsInput {
  return checked(MappingSettingsSchema, input, (value) => MappingSettingsSchema.parse(value));
}

/** A document request for the invoicing service, as the client accepts it (checked against the client's schema). */
export function documentRequest(input: unknown): CreateDocumentRequestInput {
  return checked(CreateDocumentRequestSchema, input, (value) => CreateDocumentRequestSchema.parse(value));
}
