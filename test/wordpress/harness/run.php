<?php
/**
 * Loads the companion plugin with the stand-ins of wordpress-stubs.php and runs a scenario read as
 * JSON on stdin: the locale, the signed-in user, the orders with their meta, $_POST, then steps
 * (fire an action, apply a filter, draw a meta box). Prints what each step echoed or returned, the
 * e-mails sent, the notes added and what the plugin declared, as JSON.
 *
 * Usage: php run.php <plugin main file> < scenario.json
 */

require __DIR__ . '/wordpress-stubs.php';
require __DIR__ . '/features-util.php';

$scenario = json_decode( stream_get_contents( STDIN ), true );
if ( ! is_array( $scenario ) ) {
	fwrite( STDERR, "run.php: the scenario on stdin is not JSON\n" );
	exit( 2 );
}
$plugin_file = $argv[1];

if ( 'pt_PT' === $scenario['locale'] ) {
	$file = dirname( $plugin_file ) . '/languages/magnifinance-invoices-pt_PT.l10n.php';
	$data = require $file;
	Harness::$translations['magnifinance-invoices'] = $data['messages'];
}
Harness::$user         = $scenario['user'];
Harness::$mail_accepts = ! isset( $scenario['mailAccepts'] ) || $scenario['mailAccepts'];
foreach ( $scenario['orders'] as $order ) {
	Harness::$orders[ (int) $order['id'] ] = new WC_Order( $order );
}
$_POST = isset( $scenario['post'] ) ? $scenario['post'] : array();

/** A step's argument: {"order": id} is the order, {"post": id} its post, anything else itself. */
function harness_argument( $value ) {
	if ( is_array( $value ) && isset( $value['order'] ) ) {
		return wc_get_order( $value['order'] );
	}
	if ( is_array( $value ) && isset( $value['post'] ) ) {
		return new WP_Post( (int) $value['post'] );
	}
	return $value;
}

require $plugin_file;
do_action( 'before_woocommerce_init' );
do_action( 'plugins_loaded' );
do_action( 'init' );

$results = array();
foreach ( $scenario['steps'] as $step ) {
	$args = array_map( 'harness_argument', isset( $step['args'] ) ? $step['args'] : array() );
	ob_start();
	$value = null;
	if ( 'action' === $step['kind'] ) {
		do_action( $step['name'], ...$args );
	} elseif ( 'filter' === $step['kind'] ) {
		$value = apply_filters( $step['name'], harness_argument( $step['value'] ), ...$args );
	} elseif ( 'metaBox' === $step['kind'] ) {
		do_action( 'add_meta_boxes', 'woocommerce_page_wc-orders', $args[0] );
		if ( isset( Harness::$meta_boxes[ $step['id'] ] ) ) {
			call_user_func( Harness::$meta_boxes[ $step['id'] ]['callback'], $args[0] );
		}
	}
	$results[] = array(
		'output' => ob_get_clean(),
		'value'  => is_array( $value ) ? $value : null,
	);
}

$notes = array();
foreach ( Harness::$orders as $id => $order ) {
	$notes[ (string) $id ] = $order->notes;
}
$boxes = array();
foreach ( Harness::$meta_boxes as $id => $box ) {
	$boxes[ $id ] = array( 'title' => $box['title'], 'screen' => $box['screen'], 'context' => $box['context'] );
}
echo json_encode(
	array(
		'steps'          => $results,
		'mails'          => Harness::$mails,
		'notes'          => (object) $notes,
		'metaBoxes'      => (object) $boxes,
		'declared'       => \Automattic\WooCommerce\Utilities\FeaturesUtil::$declared,
		'localeSwitches' => Harness::$locale_switches,
	)
);
