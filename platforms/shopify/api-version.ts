/**
 * The GraphQL Admin API version every request and every webhook subscription of the connector is
 * pinned to. Shopify releases a version each quarter and supports it at least twelve months
 * (shopify.dev/docs/api/usage/versioning); moving to the next is a reviewed change of this line and
 * of the queries in ./order-query.ts, never an automatic follow of "latest".
 */
export const SHOPIFY_API_VERSION = '2026-10';
