import type { IDataObject, IExecuteFunctions, IHttpRequestOptions, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import { z } from 'zod';

export const SHOP_CREDENTIAL_TYPE = 'magniFinanceWooCommerceApi';

const ShopCredentialsSchema = z.object({ url: z.string().trim().min(1) });

/** One meta entry as WooCommerce's REST API answers it (the id is the database row's). */
export const OrderMetaSchema = z.object({
  id: z.number().int(),
  key: z.string(),
  value: z.unknown(),
  /** The entry's compare digest, where the shop has compare-and-set (Shopify's Metafield.compareDigest); WooCommerce has none. */
  digest: z.string().optional(),
});
export type OrderMeta = z.infer<typeof OrderMetaSchema>;

/** The parts of an order this module reads; the mapping parses the rest with its own schema. */
const ShopOrderSchema = z.looseObject({ id: z.number().int(), meta_data: z.array(OrderMetaSchema) });
export type ShopOrder = z.infer<typeof ShopOrderSchema> & IDataObject;

const FullResponseSchema = z.object({ statusCode: z.number().int(), body: z.unknown() });

/**
 * The WooCommerce REST API (v3), the two calls the order record needs: read an order as the shop
 * has it now, and put meta on it (`meta_data` by key: an existing key is updated, a new one added,
 * as WC_Data::update_meta_data does). Every call goes through n8n's request helper with the
 * node's own shop credential.
 */
export interface ShopOrders {
  get(orderId: number): Promise<ShopOrder>;
  putMeta(orderId: number, entries: { key: string; value: string | IDataObject }[]): Promise<ShopOrder>;
  /**
   * Compare-and-set of one entry, where the shop has it (Shopify: metafieldsSet with
   * `compareDigest`; WooCommerce's REST API has none): writes `value` only if the entry is still as
   * read (`expected` its digest then; null: only if the entry does not exist yet), atomically in
   * the shop. Answers the order as read after the write, or undefined when the entry changed
   * meanwhile (nothing written).
   */
  swapMeta?(orderId: number, key: string, expected: string | null, value: string): Promise<ShopOrder | undefined>;
}

export async function shopOrders(context: IExecuteFunctions): Promise<ShopOrders> {
  const { url } = ShopCredentialsSchema.parse(await context.getCredentials(SHOP_CREDENTIAL_TYPE));
  const base = `${url.replace(/\/+$/, '')}/wp-json/wc/v3`;
  const send = async (method: 'GET' | 'PUT', orderId: number, body?: IDataObject): Promise<ShopOrder> => {
    const options: IHttpRequestOptions = {
      method,
      url: `${base}/orders/${orderId}`,
      json: true,
      returnFullResponse: true,
      ignoreHttpStatusErrors: true,
      ...(body ? { body } : {}),
    };
    const answer = FullResponseSchema.parse(await context.helpers.httpRequestWithAuthentication.call(context, SHOP_CREDENTIAL_TYPE, options));
    if (answer.statusCode < 200 || answer.statusCode > 299) {
      const reply = (typeof answer.body === 'object' && answer.body !== null ? answer.body : { message: String(answer.body) }) as JsonObject;
      throw new NodeApiError(context.getNode(), reply, {
        httpCode: String(answer.statusCode),
        message: `The shop answered ${method} order #${orderId} with HTTP ${answer.statusCode}${typeof reply.code === 'string' ? ` (${reply.code})` : ''}`,
        description:
          answer.statusCode === 401
            ? 'Check the consumer key and secret of the MagniFinance: WooCommerce Shop API credential (Read/Write permissions) and that the shop URL is https.'
            : typeof reply.message === 'string'
              ? reply.message
              : undefined,
      });
    }
    const parsed = ShopOrderSchema.safeParse(answer.body);
    if (!parsed.success) {
      throw new NodeApiError(context.getNode(), { message: 'not an order' } as JsonObject, {
        message: `The shop's answer for order #${orderId} is not a WooCommerce order (a security plugin or a cache in front of the REST API?)`,
      });
    }
    return parsed.data as ShopOrder;
  };
  return {
    get: async (orderId) => await send('GET', orderId),
    putMeta: async (orderId, entries) => await send('PUT', orderId, { meta_data: entries }),
  };
}
