<?php
/**
 * The order action "Resend the invoice by e-mail": an e-mail to the buyer with the invoice's PDF
 * link (and its credit notes'), sent through WooCommerce's mailer in its e-mail template.
 *
 * @package MagniFinance_Invoices
 */

defined( 'ABSPATH' ) || exit;

/**
 * The order action and the e-mail it sends.
 */
final class MagniFinance_Invoices_Resend {

	const ACTION = 'magnifinance_resend_invoice';
	const NONCE  = 'magnifinance_invoices_nonce';

	/**
	 * Hooks the action into the order screen's "Order actions" box.
	 */
	public static function register() {
		add_filter( 'woocommerce_order_actions', array( __CLASS__, 'offer' ), 10, 2 );
		add_action( 'woocommerce_order_action_' . self::ACTION, array( __CLASS__, 'handle' ) );
	}

	/**
	 * The action's name in the list.
	 *
	 * @return string
	 */
	public static function action_label() {
		return __( 'Resend the invoice by e-mail', 'magnifinance-invoices' );
	}

	/**
	 * Whether there is something to send: an invoice with its PDF link.
	 *
	 * @param WC_Order $order The order.
	 * @return bool
	 */
	public static function can_resend( $order ) {
		$invoice = MagniFinance_Invoices_Documents::invoice( $order );
		return null !== $invoice && '' !== $invoice['pdf_url'] && current_user_can( MagniFinance_Invoices_Admin::CAPABILITY );
	}

	/**
	 * The nonce the action checks, printed in the order screen's box (inside the order's form).
	 *
	 * @param WC_Order $order The order.
	 * @return string HTML.
	 */
	public static function nonce_field( $order ) {
		return wp_nonce_field( self::nonce_action( $order ), self::NONCE, false, false );
	}

	/**
	 * Offers the action on an order that has an invoice with a PDF link.
	 *
	 * @param array         $actions The order actions.
	 * @param WC_Order|null $order   The order (WooCommerce 5.8 and later pass it).
	 * @return array
	 */
	public static function offer( $actions, $order = null ) {
		if ( $order instanceof WC_Order && self::can_resend( $order ) ) {
			$actions[ self::ACTION ] = self::action_label();
		}
		return $actions;
	}

	/**
	 * Runs the action when the order is saved with it chosen: checks who asks and the nonce, sends,
	 * and writes what happened as a private order note.
	 *
	 * @param WC_Order $order The order.
	 */
	public static function handle( $order ) {
		if ( ! $order instanceof WC_Order || ! current_user_can( MagniFinance_Invoices_Admin::CAPABILITY ) ) {
			return;
		}
		$nonce = isset( $_POST[ self::NONCE ] ) ? sanitize_text_field( wp_unslash( $_POST[ self::NONCE ] ) ) : '';
		if ( ! wp_verify_nonce( $nonce, self::nonce_action( $order ) ) ) {
			$order->add_order_note( __( 'The invoice was not sent again: the request could not be verified. Reload the order and try again.', 'magnifinance-invoices' ) );
			return;
		}
		self::send( $order );
	}

	/**
	 * Sends the buyer the e-mail, in the shop's language, and notes the outcome on the order.
	 *
	 * @param WC_Order $order The order.
	 * @return bool Whether WordPress accepted the e-mail.
	 */
	public static function send( $order ) {
		$invoice = MagniFinance_Invoices_Documents::invoice( $order );
		$to      = (string) $order->get_billing_email();
		if ( null === $invoice || '' === $invoice['pdf_url'] ) {
			$order->add_order_note( __( 'The invoice was not sent again: the order has no invoice with a PDF link yet.', 'magnifinance-invoices' ) );
			return false;
		}
		if ( ! is_email( $to ) ) {
			$order->add_order_note( __( 'The invoice was not sent again: the order has no valid billing e-mail address.', 'magnifinance-invoices' ) );
			return false;
		}

		// The buyer reads the shop's language, whatever the language of the person who clicked.
		$switched = function_exists( 'wc_switch_to_site_locale' );
		if ( $switched ) {
			wc_switch_to_site_locale();
		}
		$mailer = WC()->mailer();
		/* translators: 1: the invoice's number, e.g. FR A/17; 2: the order's number */
		$subject = sprintf( __( 'Your invoice %1$s for order #%2$s', 'magnifinance-invoices' ), $invoice['number'], $order->get_order_number() );
		/* translators: %s: the invoice's number */
		$heading = sprintf( __( 'Invoice %s', 'magnifinance-invoices' ), $invoice['number'] );
		$message = $mailer->wrap_message( $heading, self::body( $order ) );
		$sent    = (bool) $mailer->send( $to, wp_strip_all_tags( $subject ), $message, "Content-Type: text/html; charset=UTF-8\r\n" );
		if ( $switched ) {
			wc_restore_locale();
		}

		$order->add_order_note(
			$sent
				/* translators: 1: the invoice's number; 2: the buyer's e-mail address */
				? sprintf( __( 'Invoice %1$s sent again by e-mail to %2$s.', 'magnifinance-invoices' ), $invoice['number'], $to )
				/* translators: %s: the invoice's number */
				: sprintf( __( 'The invoice %s was not sent again: WordPress could not send the e-mail.', 'magnifinance-invoices' ), $invoice['number'] )
		);
		return $sent;
	}

	/**
	 * The e-mail's body: a greeting, the order, a link per document.
	 *
	 * @param WC_Order $order The order.
	 * @return string HTML.
	 */
	public static function body( $order ) {
		$name = trim( (string) $order->get_billing_first_name() );
		$html = '<p>' . esc_html(
			'' === $name
				? __( 'Hello,', 'magnifinance-invoices' )
				/* translators: %s: the buyer's first name */
				: sprintf( __( 'Hello %s,', 'magnifinance-invoices' ), $name )
		) . '</p>';
		/* translators: %s: the order's number */
		$html .= '<p>' . esc_html( sprintf( __( 'Here are the documents of your order #%s.', 'magnifinance-invoices' ), $order->get_order_number() ) ) . '</p><ul>';
		foreach ( MagniFinance_Invoices_Documents::for_buyer( $order ) as $document ) {
			if ( '' !== $document['pdf_url'] ) {
				$html .= '<li><a href="' . esc_url( $document['pdf_url'] ) . '">' . esc_html( MagniFinance_Invoices_View::download_title( $document ) ) . '</a></li>';
			}
		}
		return $html . '</ul>';
	}

	/**
	 * The nonce's action: one per order.
	 *
	 * @param WC_Order $order The order.
	 * @return string
	 */
	private static function nonce_action( $order ) {
		return self::ACTION . '_' . $order->get_id();
	}
}
