<?php
/**
 * How a document is written for people: its type's name, its number, its PDF link. Every value
 * that comes from the order is escaped here, at the moment it becomes HTML.
 *
 * @package MagniFinance_Invoices
 */

defined( 'ABSPATH' ) || exit;

/**
 * HTML fragments for one document; the callers put them in a column, a box, a page or an e-mail.
 */
final class MagniFinance_Invoices_View {

	/**
	 * The name of a document type by the service's letter (the same names as the connector's
	 * messages/document-types.ts).
	 *
	 * @param string $type The letter: T, I, S, C, D, W, Y.
	 * @return string
	 */
	public static function type_label( $type ) {
		switch ( $type ) {
			case 'T':
				return __( 'Invoice-receipt', 'magnifinance-invoices' );
			case 'I':
				return __( 'Invoice', 'magnifinance-invoices' );
			case 'S':
				return __( 'Simplified invoice', 'magnifinance-invoices' );
			case 'C':
				return __( 'Credit note', 'magnifinance-invoices' );
			case 'D':
				return __( 'Debit note', 'magnifinance-invoices' );
			case 'W':
				return __( 'Waybill', 'magnifinance-invoices' );
			case 'Y':
				return __( 'Delivery note', 'magnifinance-invoices' );
			default:
				return __( 'Document', 'magnifinance-invoices' );
		}
	}

	/**
	 * A document's name when its type letter is missing: by its role on the order.
	 *
	 * @param array $document A document from MagniFinance_Invoices_Documents.
	 * @return string
	 */
	public static function label( array $document ) {
		if ( '' !== $document['type'] ) {
			return self::type_label( $document['type'] );
		}
		if ( 'credit-note' === $document['role'] ) {
			return self::type_label( 'C' );
		}
		if ( 'waybill' === $document['role'] ) {
			return self::type_label( 'W' );
		}
		return self::type_label( 'I' );
	}

	/**
	 * The number, linked to the PDF when there is one (a new tab: the PDF link redirects to the
	 * service's file).
	 *
	 * @param array  $document A document.
	 * @param string $title    The link's title (a sentence naming what it opens), or ''.
	 * @return string HTML.
	 */
	public static function number_link( array $document, $title = '' ) {
		$number = '<span class="magnifinance-invoices-number">' . esc_html( $document['number'] ) . '</span>';
		if ( '' === $document['pdf_url'] ) {
			return $number;
		}
		$title_attribute = '' === $title ? '' : ' title="' . esc_attr( $title ) . '"';
		return '<a href="' . esc_url( $document['pdf_url'] ) . '" target="_blank" rel="noopener noreferrer"' . $title_attribute . '>' . $number . '</a>';
	}

	/**
	 * "Download the invoice FR A/17 (PDF)": what a link to the document's PDF opens.
	 *
	 * @param array $document A document.
	 * @return string Plain text (escape it where it is written).
	 */
	public static function download_title( array $document ) {
		if ( 'credit-note' === $document['role'] ) {
			/* translators: %s: the credit note's number, e.g. NC A/3 */
			return sprintf( __( 'Download the credit note %s (PDF)', 'magnifinance-invoices' ), $document['number'] );
		}
		/* translators: %s: the invoice's number, e.g. FR A/17 */
		return sprintf( __( 'Download the invoice %s (PDF)', 'magnifinance-invoices' ), $document['number'] );
	}

	/**
	 * What a document is there for, after its number: "cancelled", "refund #2001", "cancellation".
	 *
	 * @param array $document A document.
	 * @return string Plain text, '' when there is nothing to add.
	 */
	public static function qualifier( array $document ) {
		if ( ! empty( $document['cancelled'] ) ) {
			return __( 'cancelled', 'magnifinance-invoices' );
		}
		if ( ! empty( $document['for_cancellation'] ) ) {
			return __( 'order cancelled', 'magnifinance-invoices' );
		}
		if ( ! empty( $document['refund_id'] ) ) {
			/* translators: %s: the refund's id in the shop */
			return sprintf( __( 'refund #%s', 'magnifinance-invoices' ), $document['refund_id'] );
		}
		return '';
	}
}
