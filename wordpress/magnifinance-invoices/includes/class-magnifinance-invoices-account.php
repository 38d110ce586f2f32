<?php
/**
 * The buyer's My Account: a download link in the orders list and on the order's page, only for
 * the buyer's own orders.
 *
 * @package MagniFinance_Invoices
 */

defined( 'ABSPATH' ) || exit;

/**
 * The "Invoice" column of My Account > Orders and the documents under the order's details.
 */
final class MagniFinance_Invoices_Account {

	const COLUMN = 'magnifinance-invoice';

	/**
	 * Hooks the column and the order page's section.
	 */
	public static function register() {
		add_filter( 'woocommerce_account_orders_columns', array( __CLASS__, 'add_column' ) );
		add_action( 'woocommerce_my_account_my_orders_column_' . self::COLUMN, array( __CLASS__, 'render_column' ) );
		add_action( 'woocommerce_order_details_after_order_table', array( __CLASS__, 'render_details' ) );
	}

	/**
	 * The column before the actions (at the end when there is none).
	 *
	 * @param array $columns My Account's order columns.
	 * @return array
	 */
	public static function add_column( $columns ) {
		$result = array();
		foreach ( $columns as $key => $label ) {
			if ( 'order-actions' === $key ) {
				$result[ self::COLUMN ] = __( 'Invoice', 'magnifinance-invoices' );
			}
			$result[ $key ] = $label;
		}
		if ( ! isset( $result[ self::COLUMN ] ) ) {
			$result[ self::COLUMN ] = __( 'Invoice', 'magnifinance-invoices' );
		}
		return $result;
	}

	/**
	 * The cell: each document's number, a link to its PDF.
	 *
	 * @param WC_Order $order The row's order.
	 */
	public static function render_column( $order ) {
		echo self::column_html( $order ); // phpcs:ignore WordPress.Security.EscapeOutput -- built from escaped parts.
	}

	/**
	 * The section under the order's details (My Account > Orders > View, and the order-received page).
	 *
	 * @param WC_Order $order The order shown.
	 */
	public static function render_details( $order ) {
		echo self::details_html( $order ); // phpcs:ignore WordPress.Security.EscapeOutput -- built from escaped parts.
	}

	/**
	 * The cell's content ('' for an order that is not the signed-in buyer's).
	 *
	 * @param WC_Order $order The order.
	 * @return string HTML.
	 */
	public static function column_html( $order ) {
		if ( ! self::is_buyers_own( $order ) ) {
			return '';
		}
		$links = array();
		foreach ( MagniFinance_Invoices_Documents::for_buyer( $order ) as $document ) {
			$links[] = '<span style="white-space:nowrap">' . MagniFinance_Invoices_View::number_link( $document, MagniFinance_Invoices_View::download_title( $document ) ) . '</span>';
		}
		return implode( '<br>', $links );
	}

	/**
	 * The section's content ('' without documents or for an order that is not the signed-in buyer's).
	 *
	 * @param WC_Order $order The order.
	 * @return string HTML.
	 */
	public static function details_html( $order ) {
		if ( ! self::is_buyers_own( $order ) ) {
			return '';
		}
		$documents = MagniFinance_Invoices_Documents::for_buyer( $order );
		if ( array() === $documents ) {
			return '';
		}
		$html = '<section class="woocommerce-magnifinance-invoices"><h2 class="woocommerce-order-details__title">' . esc_html__( 'Invoice', 'magnifinance-invoices' ) . '</h2><ul>';
		foreach ( $documents as $document ) {
			$html .= '<li>' . esc_html( MagniFinance_Invoices_View::label( $document ) ) . ' ' . MagniFinance_Invoices_View::number_link( $document );
			// The shop's refund ids mean nothing to the buyer: only a cancelled invoice or order is said.
			if ( ! empty( $document['cancelled'] ) || ! empty( $document['for_cancellation'] ) ) {
				$html .= ' (' . esc_html( MagniFinance_Invoices_View::qualifier( $document ) ) . ')';
			}
			if ( '' !== $document['pdf_url'] ) {
				$html .= ' &middot; <a href="' . esc_url( $document['pdf_url'] ) . '" target="_blank" rel="noopener noreferrer">' . esc_html__( 'Download (PDF)', 'magnifinance-invoices' ) . '</a>';
			}
			$html .= '</li>';
		}
		return $html . '</ul></section>';
	}

	/**
	 * Whether the order belongs to the signed-in buyer: a guest, or another customer, sees nothing
	 * (an order-received page opened with the order's key shows no document).
	 *
	 * @param mixed $order The order.
	 * @return bool
	 */
	private static function is_buyers_own( $order ) {
		$user_id = get_current_user_id();
		return $order instanceof WC_Order && $user_id > 0 && (int) $order->get_customer_id() === $user_id;
	}
}
