import { z } from 'zod';

/**
 * Shopify's numeric ids (an order's `legacyResourceId`, the number at the end of a global id, a REST
 * body's `id`) as the connector keeps them: a JavaScript number, exact up to 2^53 - 1. Today's order
 * ids are about 6x10^12, far below; an id above the limit would be rounded to another order's number,
 * so it is refused here, at the boundary, with a message that says why, never kept rounded.
 */
export const MAX_EXACT_ID = Number.MAX_SAFE_INTEGER;

const TOO_LARGE = `is above 2^53 - 1 (${MAX_EXACT_ID}): the connector keeps Shopify ids as exact numbers and cannot take this one`;

/** A REST body's numeric id (JSON.parse has already rounded one above the limit: still above it, so refused). */
export const shopifyNumericId = z.number({ message: 'is required (a Shopify id)' }).int().positive().max(MAX_EXACT_ID, { message: TOO_LARGE });

/** A GraphQL `legacyResourceId` ("5962412736508"). */
export const shopifyLegacyId = z
  .string()
  .regex(/^\d+$/, { message: 'must be a Shopify numeric id' })
  .refine((id) => Number.isSafeInteger(Number(id)), { message: TOO_LARGE });

/** A global id whose number the connector keeps ("gid://shopify/Refund/42"). */
export const shopifyGidWithExactId = z.string().refine((gid) => Number.isSafeInteger(Number(gid.slice(gid.lastIndexOf('/') + 1))), { message: TOO_LARGE });
