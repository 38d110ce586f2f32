<?php
/**
 * The few WordPress and WooCommerce functions the companion plugin calls, as small stand-ins, so
 * that php-cli can load it and fire its hooks without a shop (CI has no WordPress). Where the real
 * function decides something the tests look at (escaping, the URL's protocol, nonces, capabilities,
 * the signed-in user) the stand-in does what WordPress does; the real thing runs in
 * test/wordpress/real-lab.test.ts against the lab.
 */

define( 'ABSPATH', __DIR__ . '/' );

/** What the scenario set: the locale's translations, the user, the orders; what the plugin did. */
final class Harness {
	public static $hooks = array();
	public static $translations = array();
	public static $user = array( 'id' => 0, 'caps' => array() );
	public static $orders = array();
	public static $meta_boxes = array();
	public static $mails = array();
	public static $mail_accepts = true;
	public static $locale_switches = array();
	public static $nonce_salt = 'harness';
}

function add_filter( $name, $callback, $priority = 10, $accepted_args = 1 ) {
	Harness::$hooks[ $name ][ $priority ][] = array( $callback, $accepted_args );
	return true;
}
function add_action( $name, $callback, $priority = 10, $accepted_args = 1 ) {
	return add_filter( $name, $callback, $priority, $accepted_args );
}
function apply_filters( $name, $value, ...$args ) {
	if ( empty( Harness::$hooks[ $name ] ) ) {
		return $value;
	}
	ksort( Harness::$hooks[ $name ] );
	foreach ( Harness::$hooks[ $name ] as $callbacks ) {
		foreach ( $callbacks as list( $callback, $accepted ) ) {
			$value = call_user_func_array( $callback, array_slice( array_merge( array( $value ), $args ), 0, $accepted ) );
		}
	}
	return $value;
}
function do_action( $name, ...$args ) {
	if ( empty( Harness::$hooks[ $name ] ) ) {
		return;
	}
	ksort( Harness::$hooks[ $name ] );
	foreach ( Harness::$hooks[ $name ] as $callbacks ) {
		foreach ( $callbacks as list( $callback, $accepted ) ) {
			call_user_func_array( $callback, array_slice( $args, 0, $accepted ) );
		}
	}
}

function __( $text, $domain = 'default' ) {
	return isset( Harness::$translations[ $domain ][ $text ] ) ? Harness::$translations[ $domain ][ $text ] : $text;
}
function esc_html__( $text, $domain = 'default' ) {
	return esc_html( __( $text, $domain ) );
}
function load_plugin_textdomain( $domain, $deprecated = false, $path = false ) {
	return true;
}
function plugin_basename( $file ) {
	return basename( dirname( $file ) ) . '/' . basename( $file );
}

// Escaping as WordPress does it: special characters to entities (quotes too), never twice.
function esc_html( $text ) {
	return htmlspecialchars( (string) $text, ENT_QUOTES, 'UTF-8', false );
}
function esc_attr( $text ) {
	return esc_html( $text );
}
/** WordPress's esc_url: only its allowed protocols, characters outside a URL removed, & and ' as entities. */
function esc_url( $url ) {
	$url = str_replace( ' ', '%20', ltrim( (string) $url ) );
	$url = preg_replace( '|[^a-z0-9-~+_.?#=!&;,/:%@$\|*\'()\[\]\x80-\xff]|i', '', $url );
	if ( '' === $url ) {
		return '';
	}
	if ( preg_match( '/^([a-z][a-z0-9+.-]*):/i', $url, $m ) && ! in_array( strtolower( $m[1] ), array( 'http', 'https', 'ftp', 'ftps', 'mailto', 'news', 'irc', 'irc6', 'ircs', 'gopher', 'nntp', 'feed', 'telnet', 'mms', 'rtsp', 'sms', 'svn', 'tel', 'fax', 'xmpp', 'webcal', 'urn' ), true ) ) {
		return '';
	}
	$url = str_replace( '&amp;', '&#038;', $url );
	$url = preg_replace( '/&([^#])(?![a-z1-4]{1,8};)/i', '&#038;$1', $url );
	return str_replace( "'", '&#039;', $url );
}
function wp_kses_post( $html ) {
	return preg_replace( '#<script\b[^>]*>.*?</script>#is', '', (string) $html );
}
function wp_strip_all_tags( $text ) {
	return trim( strip_tags( preg_replace( '@<(script|style)[^>]*?>.*?</\\1>@si', '', (string) $text ) ) );
}
function wp_parse_url( $url, $component = -1 ) {
	return parse_url( $url, $component );
}
function wp_unslash( $value ) {
	return is_string( $value ) ? stripslashes( $value ) : $value;
}
function sanitize_text_field( $text ) {
	return trim( preg_replace( '/[\r\n\t ]+/', ' ', strip_tags( (string) $text ) ) );
}
function is_email( $email ) {
	return false !== filter_var( $email, FILTER_VALIDATE_EMAIL ) ? $email : false;
}

function get_current_user_id() {
	return (int) Harness::$user['id'];
}
function current_user_can( $capability, ...$args ) {
	return in_array( $capability, Harness::$user['caps'], true );
}
// A nonce is bound to its action and the user, as WordPress's is.
function wp_create_nonce( $action ) {
	return substr( hash_hmac( 'sha256', $action . '|' . get_current_user_id(), Harness::$nonce_salt ), 0, 10 );
}
function wp_verify_nonce( $nonce, $action ) {
	return is_string( $nonce ) && '' !== $nonce && hash_equals( wp_create_nonce( $action ), $nonce ) ? 1 : false;
}
function wp_nonce_field( $action, $name, $referer = true, $display = true ) {
	$field = '<input type="hidden" id="' . esc_attr( $name ) . '" name="' . esc_attr( $name ) . '" value="' . esc_attr( wp_create_nonce( $action ) ) . '" />';
	if ( $display ) {
		echo $field; // phpcs:ignore
	}
	return $field;
}

function add_meta_box( $id, $title, $callback, $screen, $context, $priority ) {
	Harness::$meta_boxes[ $id ] = array( 'title' => $title, 'callback' => $callback, 'screen' => $screen, 'context' => $context );
}
function wc_get_page_screen_id( $for ) {
	return 'woocommerce_page_wc-orders';
}
function wc_get_order( $id ) {
	return isset( Harness::$orders[ (int) $id ] ) ? Harness::$orders[ (int) $id ] : false;
}
function wc_price( $amount, $args = array() ) {
	return '<span class="woocommerce-Price-amount amount">' . number_format( (float) $amount, 2, ',', '.' ) . '&nbsp;<span class="woocommerce-Price-currencySymbol">' . esc_html( isset( $args['currency'] ) ? $args['currency'] : '' ) . '</span></span>';
}
function wc_switch_to_site_locale() {
	Harness::$locale_switches[] = 'site';
}
function wc_restore_locale() {
	Harness::$locale_switches[] = 'restore';
}

final class WP_Post {
	public $ID;
	public function __construct( $id ) {
		$this->ID = $id;
	}
}

/** WooCommerce's meta entry: get_data() gives id, key and value. */
final class WC_Meta_Data {
	private $data;
	public function __construct( array $data ) {
		$this->data = $data;
	}
	public function get_data() {
		return $this->data;
	}
}

final class WC_Order {
	private $data;
	public $notes = array();
	public function __construct( array $data ) {
		$this->data = $data;
	}
	public function get_id() {
		return (int) $this->data['id'];
	}
	public function get_order_number() {
		return (string) $this->data['id'];
	}
	public function get_customer_id() {
		return (int) $this->data['customer_id'];
	}
	public function get_billing_email() {
		return (string) $this->data['billing_email'];
	}
	public function get_billing_first_name() {
		return (string) $this->data['billing_first_name'];
	}
	public function get_currency() {
		return (string) $this->data['currency'];
	}
	/** The first value of a key, '' without one (WooCommerce's get_meta( $key, true )). */
	public function get_meta( $key, $single = true ) {
		foreach ( $this->data['meta'] as $entry ) {
			if ( $entry['key'] === $key ) {
				return $entry['value'];
			}
		}
		return '';
	}
	public function get_meta_data() {
		return array_map(
			function ( $entry, $index ) {
				return new WC_Meta_Data( array( 'id' => $index + 1, 'key' => $entry['key'], 'value' => $entry['value'] ) );
			},
			$this->data['meta'],
			array_keys( $this->data['meta'] )
		);
	}
	public function add_order_note( $note, $is_customer_note = 0 ) {
		$this->notes[] = $note;
		return count( $this->notes );
	}
}

/** WooCommerce's mailer: the template wraps the heading and the body; send() records the e-mail. */
final class WC_Emails {
	public function wrap_message( $heading, $message ) {
		return '<html><body><h1>' . esc_html( $heading ) . '</h1>' . $message . '</body></html>';
	}
	public function send( $to, $subject, $message, $headers = '', $attachments = '' ) {
		Harness::$mails[] = array( 'to' => $to, 'subject' => $subject, 'message' => $message, 'headers' => $headers );
		return Harness::$mail_accepts;
	}
}
final class WooCommerce {
	private $mailer;
	public function mailer() {
		if ( null === $this->mailer ) {
			$this->mailer = new WC_Emails();
		}
		return $this->mailer;
	}
}
function WC() {
	static $instance = null;
	if ( null === $instance ) {
		$instance = new WooCommerce();
	}
	return $instance;
}
