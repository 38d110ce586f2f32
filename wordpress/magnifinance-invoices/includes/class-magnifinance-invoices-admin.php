<?php
/**
 * The shop's staff: a column in the orders list (WooCommerce's own order tables and the older
 * posts storage) and a box on the order screen.
 *
 * @package MagniFinance_Invoices
 */

defined( 'ABSPATH' ) || exit;

/**
 * The orders list's "Invoice" column and the order screen's box.
 */
final class MagniFinance_Invoices_Admin {

	const COLUMN = 'magnifinance_invoice';

	/** Who sees the documents in wp-admin: whoever may manage the shop's orders. */
	const CAPABILITY = 'edit_shop_orders';

	/**
	 * Hooks the column on both orders screens and the box on the order screen.
	 */
	public static function register() {
		// Orders in WooCommerce's tables (HPOS): the screen woocommerce_page_wc-orders.
		add_filter( 'manage_woocommerce_page_wc-orders_columns', array( __CLASS__, 'add_column' ), 20 );
		add_action( 'manage_woocommerce_page_wc-orders_custom_column', array( __CLASS__, 'render_order_column' ), 10, 2 );
		// Orders stored as posts (shops that have not moved to HPOS).
		add_filter( 'manage_edit-shop_order_columns', array( __CLASS__, 'add_column' ), 20 );
		add_action( 'manage_shop_order_posts_custom_column', array( __CLASS__, 'render_post_column' ), 10, 2 );
		add_action( 'add_meta_boxes', array( __CLASS__, 'add_meta_box' ) );
	}

	/**
	 * The column after the order's total (at the end when the list has no total column).
	 *
	 * @param array $columns The list's columns.
	 * @return array
	 */
	public static function add_column( $columns ) {
		$result = array();
		foreach ( $columns as $key => $label ) {
			$result[ $key ] = $label;
			if ( 'order_total' === $key ) {
				$result[ self::COLUMN ] = __( 'Invoice', 'magnifinance-invoices' );
			}
		}
		if ( ! isset( $result[ self::COLUMN ] ) ) {
			$result[ self::COLUMN ] = __( 'Invoice', 'magnifinance-invoices' );
		}
		return $result;
	}

	/**
	 * The column's cell on the HPOS list (WooCommerce passes the order).
	 *
	 * @param string   $column The column's key.
	 * @param WC_Order $order  The row's order.
	 */
	public static function render_order_column( $column, $order ) {
		if ( self::COLUMN === $column && $order instanceof WC_Order ) {
			echo self::column_html( $order ); // phpcs:ignore WordPress.Security.EscapeOutput -- built from escaped parts.
		}
	}

	/**
	 * The column's cell on the posts list (WordPress passes the post's id).
	 *
	 * @param string $column  The column's key.
	 * @param int    $post_id The row's order id.
	 */
	public static function render_post_column( $column, $post_id ) {
		if ( self::COLUMN !== $column ) {
			return;
		}
		$order = wc_get_order( $post_id );
		if ( $order instanceof WC_Order ) {
			echo self::column_html( $order ); // phpcs:ignore WordPress.Security.EscapeOutput -- built from escaped parts.
		}
	}

	/**
	 * The invoice's number linked to its PDF, then its credit notes' numbers; a dash without any.
	 *
	 * @param WC_Order $order The order.
	 * @return string HTML.
	 */
	public static function column_html( $order ) {
		if ( ! current_user_can( self::CAPABILITY ) ) {
			return '';
		}
		$documents = MagniFinance_Invoices_Documents::for_buyer( $order );
		if ( array() === $documents ) {
			return '<span aria-hidden="true">&ndash;</span><span class="screen-reader-text">' . esc_html__( 'No invoice yet', 'magnifinance-invoices' ) . '</span>';
		}
		$lines = array();
		foreach ( $documents as $document ) {
			$line      = MagniFinance_Invoices_View::number_link( $document, MagniFinance_Invoices_View::download_title( $document ) );
			$qualifier = MagniFinance_Invoices_View::qualifier( $document );
			if ( 'credit-note' === $document['role'] || '' !== $qualifier ) {
				$what  = 'credit-note' === $document['role'] ? MagniFinance_Invoices_View::label( $document ) : $qualifier;
				$line .= ' <small>(' . esc_html( $what ) . ')</small>';
			}
			$lines[] = '<span style="white-space:nowrap">' . $line . '</span>';
		}
		return implode( '<br>', $lines );
	}

	/**
	 * The box beside the order, on the HPOS order screen or the post one (the same screen id
	 * function answers for either storage).
	 */
	public static function add_meta_box() {
		if ( ! current_user_can( self::CAPABILITY ) ) {
			return;
		}
		add_meta_box(
			'magnifinance-invoices',
			__( 'MagniFinance invoice', 'magnifinance-invoices' ),
			array( __CLASS__, 'render_meta_box' ),
			wc_get_page_screen_id( 'shop-order' ),
			'side',
			'high'
		);
	}

	/**
	 * The box: each document with its type, number, PDF link and state; how to send it again.
	 *
	 * @param WP_Post|WC_Order $post_or_order The post (posts storage) or the order (HPOS).
	 */
	public static function render_meta_box( $post_or_order ) {
		$order = $post_or_order instanceof WC_Order ? $post_or_order : wc_get_order( $post_or_order->ID );
		if ( ! $order instanceof WC_Order || ! current_user_can( self::CAPABILITY ) ) {
			return;
		}
		echo self::meta_box_html( $order ); // phpcs:ignore WordPress.Security.EscapeOutput -- built from escaped parts.
	}

	/**
	 * The box's content.
	 *
	 * @param WC_Order $order The order.
	 * @return string HTML.
	 */
	public static function meta_box_html( $order ) {
		$documents = MagniFinance_Invoices_Documents::all( $order );
		if ( array() === $documents ) {
			return '<p>' . esc_html__( 'No invoice yet: the MagniFinance connector writes its number and PDF link here when it issues it.', 'magnifinance-invoices' ) . '</p>';
		}
		$html = '<ul class="magnifinance-invoices-documents">';
		foreach ( $documents as $document ) {
			$html .= '<li><strong>' . esc_html( MagniFinance_Invoices_View::label( $document ) ) . '</strong> <span class="magnifinance-invoices-number" style="white-space:nowrap">' . esc_html( $document['number'] ) . '</span>';
			// What it is for and how much it credits, on a line of its own: "refund #32 · 5,00 €".
			$facts     = array();
			$qualifier = MagniFinance_Invoices_View::qualifier( $document );
			if ( '' !== $qualifier ) {
				$facts[] = esc_html( $qualifier );
			}
			if ( '' !== $document['amount'] ) {
				$facts[] = wp_kses_post( wc_price( $document['amount'], array( 'currency' => $order->get_currency() ) ) );
			}
			if ( array() !== $facts ) {
				$html .= '<br><small>' . implode( ' &middot; ', $facts ) . '</small>';
			}
			if ( '' !== $document['pdf_url'] ) {
				$html .= '<br><a href="' . esc_url( $document['pdf_url'] ) . '" target="_blank" rel="noopener noreferrer" title="' . esc_attr( MagniFinance_Invoices_View::download_title( $document ) ) . '">' . esc_html__( 'Download (PDF)', 'magnifinance-invoices' ) . '</a>';
			}
			$html .= '</li>';
		}
		$html .= '</ul>';
		if ( MagniFinance_Invoices_Resend::can_resend( $order ) ) {
			$html .= '<p class="description">' . esc_html(
				sprintf(
					/* translators: %s: the order action's name, "Resend the invoice by e-mail" */
					__( 'To send it to the buyer again, choose "%s" in the order actions and update the order.', 'magnifinance-invoices' ),
					MagniFinance_Invoices_Resend::action_label()
				)
			) . '</p>';
			$html .= MagniFinance_Invoices_Resend::nonce_field( $order );
		}
		return $html;
	}
}
