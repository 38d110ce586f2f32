/**
 * The order in the Shopify admin: under admin.shopify.com/store/<handle> when the tenant gives that
 * admin URL, else the store's own /admin, which Shopify redirects to it.
 */
export function shopifyAdminOrderUrl(adminUrl: string, orderId: number): string {
  const base = adminUrl.replace(/\/+$/, '');
  return new URL(base).host === 'admin.shopify.com' ? `${base}/orders/${orderId}` : `${base}/admin/orders/${orderId}`;
}
