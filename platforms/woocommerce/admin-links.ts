/**
 * The order in wp-admin. WooCommerce's own edit link on a shop with HPOS; on a shop that still keeps
 * orders as posts WooCommerce (7.1 and later) redirects it to post.php?post=<id>&action=edit, so the
 * one link works on both.
 */
export function wpAdminOrderUrl(shopUrl: string, orderId: number): string {
  return `${shopUrl.replace(/\/+$/, '')}/wp-admin/admin.php?page=wc-orders&action=edit&id=${orderId}`;
}
