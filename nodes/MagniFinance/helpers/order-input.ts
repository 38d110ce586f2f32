import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { z } from 'zod';

import { MappingSettingsSchema } from '../../../law/mapping-settings';
import type { MappingSettings } from '../../../law/mapping-settings';
import { WooOrderSchema } from '../../../platforms/woocommerce/order-schema';
import type { WooOrder } from '../../../platforms/woocommerce/order-schema';
import type { WooOrderInput } from '../../../platforms/woocommerce/documents';
import { looksLikeShopifyOrder } from '../../../platforms/shopify/rest-payloads';
import { readJsonObject } from './parameters';

function issuesText(error: z.ZodError): string {
  return error.issues
    .slice(0, 10)
    .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
    .join('\n');
}

export interface OrderInput {
  /** As received: the mapping parses it again with its own schema. */
  input: WooOrderInput;
  order: WooOrder;
}

/** The WooCommerce order from the Order parameter (an object from `{{ $json }}` or JSON text). */
export function readOrder(context: IExecuteFunctions, itemIndex: number): OrderInput {
  return orderFromJson(context, readJsonObject(context, 'order', 'Order', itemIndex), itemIndex);
}

/** A WooCommerce order from JSON (the Order parameter, or the order as the shop answers it). */
export function orderFromJson(context: IExecuteFunctions, value: unknown, itemIndex: number): OrderInput {
  const parsed = WooOrderSchema.safeParse(value);
  if (!parsed.success) {
    throw new NodeOperationError(context.getNode(), 'Order is not a WooCommerce order', {
      itemIndex,
      description: looksLikeShopifyOrder(value)
        ? 'It is a Shopify order: set Shop Platform to "Shopify".'
        : issuesText(parsed.error),
    });
  }
  return { input: value as WooOrderInput, order: parsed.data };
}

/** Mapping settings from JSON; every problem is reported at once, before any request. */
export function readMappingSettings(context: IExecuteFunctions, itemIndex: number): MappingSettings {
  const value = readJsonObject(context, 'mappingSettings', 'Mapping Settings (JSON)', itemIndex);
  const parsed = MappingSettingsSchema.safeParse(value ?? {});
  if (!parsed.success) {
    throw new NodeOperationError(context.getNode(), 'Invalid Mapping Settings (JSON)', {
      itemIndex,
      description: issuesText(parsed.error),
    });
  }
  return parsed.data;
}
