<?php
/**
 * The documents on an order, read from the meta the MagniFinance connector writes there
 * (docs/connector.md, "What is written on the order"). This plugin keeps nothing of its own: the
 * order's meta is the one source, and an order without it simply shows no document.
 *
 * @package MagniFinance_Invoices
 */

defined( 'ABSPATH' ) || exit;

/**
 * Reads the connector's meta into plain arrays: role ('invoice', 'credit-note', 'waybill'), number,
 * type (the service's letter), pdf_url ('' when absent or not an http(s) link), cancelled, amount,
 * refund_id (credit notes of a refund), for_cancellation (the credit note of a cancelled order).
 */
final class MagniFinance_Invoices_Documents {

	const DOCUMENT_NUMBER    = '_magnifinance_document_number';
	const DOCUMENT_TYPE      = '_magnifinance_document_type';
	const DOCUMENT_STATE     = '_magnifinance_document_state';
	const PDF_URL            = '_magnifinance_pdf_url';
	const WAYBILL            = '_magnifinance_waybill';
	const CREDIT_NOTE_PREFIX = '_magnifinance_credit_note_';
	const CANCELLATION       = '_magnifinance_cancellation';

	/**
	 * The order's invoice, or null when the connector has not written one.
	 *
	 * @param WC_Order $order The order.
	 * @return array|null
	 */
	public static function invoice( $order ) {
		$number = self::text( $order->get_meta( self::DOCUMENT_NUMBER, true ) );
		if ( '' === $number ) {
			return null;
		}
		return array(
			'role'      => 'invoice',
			'number'    => $number,
			'type'      => self::text( $order->get_meta( self::DOCUMENT_TYPE, true ) ),
			'pdf_url'   => self::pdf_url( $order->get_meta( self::PDF_URL, true ) ),
			'amount'    => '',
			'cancelled' => 'cancelled' === self::text( $order->get_meta( self::DOCUMENT_STATE, true ) ),
		);
	}

	/**
	 * The credit notes on the order: one per refund (by refund id), then the one of a cancellation.
	 *
	 * @param WC_Order $order The order.
	 * @return array[]
	 */
	public static function credit_notes( $order ) {
		$notes = array();
		foreach ( $order->get_meta_data() as $meta ) {
			$data = $meta->get_data();
			$key  = (string) $data['key'];
			if ( 0 !== strpos( $key, self::CREDIT_NOTE_PREFIX ) ) {
				continue;
			}
			$refund_id = substr( $key, strlen( self::CREDIT_NOTE_PREFIX ) );
			$document  = self::document( 'credit-note', $data['value'] );
			if ( null === $document || ! ctype_digit( $refund_id ) ) {
				continue;
			}
			$document['refund_id'] = (int) $refund_id;
			$notes[]               = $document;
		}
		usort(
			$notes,
			function ( $a, $b ) {
				return $a['refund_id'] - $b['refund_id'];
			}
		);
		$cancellation = self::structured( $order->get_meta( self::CANCELLATION, true ) );
		if ( isset( $cancellation['action'] ) && 'credit-note' === $cancellation['action'] ) {
			$document = self::document( 'credit-note', $cancellation );
			if ( null !== $document ) {
				$document['for_cancellation'] = true;
				$notes[]                      = $document;
			}
		}
		return $notes;
	}

	/**
	 * The order's waybill, or null.
	 *
	 * @param WC_Order $order The order.
	 * @return array|null
	 */
	public static function waybill( $order ) {
		return self::document( 'waybill', $order->get_meta( self::WAYBILL, true ) );
	}

	/**
	 * What the buyer may download: the invoice and its credit notes (a waybill travels with the goods).
	 *
	 * @param WC_Order $order The order.
	 * @return array[]
	 */
	public static function for_buyer( $order ) {
		$invoice = self::invoice( $order );
		return array_merge( null === $invoice ? array() : array( $invoice ), self::credit_notes( $order ) );
	}

	/**
	 * Every document on the order, for the shop's staff.
	 *
	 * @param WC_Order $order The order.
	 * @return array[]
	 */
	public static function all( $order ) {
		$waybill = self::waybill( $order );
		return array_merge( self::for_buyer( $order ), null === $waybill ? array() : array( $waybill ) );
	}

	/**
	 * One document from a structured meta value ({number, documentId, type, pdfUrl, amount}).
	 *
	 * @param string $role  The document's role.
	 * @param mixed  $value The meta value: an array, or the same as a JSON text.
	 * @return array|null
	 */
	private static function document( $role, $value ) {
		$value  = self::structured( $value );
		$number = isset( $value['number'] ) ? self::text( $value['number'] ) : '';
		if ( '' === $number ) {
			return null;
		}
		return array(
			'role'      => $role,
			'number'    => $number,
			'type'      => isset( $value['type'] ) ? self::text( $value['type'] ) : '',
			'pdf_url'   => isset( $value['pdfUrl'] ) ? self::pdf_url( $value['pdfUrl'] ) : '',
			'amount'    => isset( $value['amount'] ) && is_numeric( $value['amount'] ) ? (string) $value['amount'] : '',
			'cancelled' => false,
		);
	}

	/**
	 * A meta value that holds an object: WooCommerce keeps it as an array (written through the REST
	 * API as JSON), a script may have written the JSON text itself.
	 *
	 * @param mixed $value The meta value.
	 * @return array
	 */
	private static function structured( $value ) {
		if ( is_string( $value ) && '' !== $value ) {
			$value = json_decode( $value, true );
		}
		if ( is_object( $value ) ) {
			$value = get_object_vars( $value );
		}
		return is_array( $value ) ? $value : array();
	}

	/**
	 * A scalar meta value as trimmed text ('' for anything else).
	 *
	 * @param mixed $value The meta value.
	 * @return string
	 */
	private static function text( $value ) {
		return is_scalar( $value ) ? trim( (string) $value ) : '';
	}

	/**
	 * The PDF link when it is an http(s) URL, else '' (no link is better than a javascript: one).
	 *
	 * @param mixed $value The meta value.
	 * @return string
	 */
	private static function pdf_url( $value ) {
		$url    = self::text( $value );
		$scheme = strtolower( (string) wp_parse_url( $url, PHP_URL_SCHEME ) );
		return in_array( $scheme, array( 'http', 'https' ), true ) ? $url : '';
	}
}
