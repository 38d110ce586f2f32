<?php
/**
 * Writes a WordPress translation file (.l10n.php, read by WordPress 6.5 and later) from a .po file:
 * the same messages, as a PHP array. Usage: php po-to-l10n.php <file.po> <file.l10n.php>
 *
 * @package MagniFinance_Invoices
 */

if ( 3 !== $argc ) {
	fwrite( STDERR, "usage: php po-to-l10n.php <file.po> <file.l10n.php>\n" );
	exit( 2 );
}

/**
 * The entries of a .po file (no plurals or contexts: the plugin uses neither), and its headers.
 *
 * @param string $text The file's text.
 * @return array{0: array<string, string>, 1: array<string, string>}
 */
function po_entries( $text ) {
	$entries = array();
	$field   = null;
	$current = array(
		'msgid'  => null,
		'msgstr' => null,
	);
	$flush   = function () use ( &$entries, &$current ) {
		if ( null !== $current['msgid'] && null !== $current['msgstr'] ) {
			$entries[ $current['msgid'] ] = $current['msgstr'];
		}
		$current = array(
			'msgid'  => null,
			'msgstr' => null,
		);
	};
	foreach ( preg_split( '/\r?\n/', $text ) as $line ) {
		if ( preg_match( '/^(msgid|msgstr) "(.*)"$/', $line, $m ) ) {
			if ( 'msgid' === $m[1] ) {
				$flush();
			}
			$field             = $m[1];
			$current[ $field ] = stripcslashes( $m[2] );
		} elseif ( null !== $field && preg_match( '/^"(.*)"$/', $line, $m ) ) {
			$current[ $field ] .= stripcslashes( $m[1] );
		} elseif ( preg_match( '/^msg(ctxt|id_plural)/', $line ) ) {
			fwrite( STDERR, "po-to-l10n.php: contexts and plurals are not supported\n" );
			exit( 1 );
		}
	}
	$flush();
	$headers = array();
	foreach ( explode( "\n", isset( $entries[''] ) ? $entries[''] : '' ) as $header ) {
		$parts = explode( ':', $header, 2 );
		if ( 2 === count( $parts ) ) {
			$headers[ strtolower( trim( $parts[0] ) ) ] = trim( $parts[1] );
		}
	}
	unset( $entries[''] );
	return array( array_filter( $entries, 'strlen' ), $headers );
}

list( $messages, $headers ) = po_entries( file_get_contents( $argv[1] ) );
ksort( $messages );
$data = array(
	'domain'        => 'magnifinance-invoices',
	'language'      => isset( $headers['language'] ) ? $headers['language'] : '',
	'plural-forms'  => isset( $headers['plural-forms'] ) ? $headers['plural-forms'] : '',
	'messages'      => $messages,
);
file_put_contents( $argv[2], "<?php\n// Generated from " . basename( $argv[1] ) . " by wordpress/po-to-l10n.php; edit the .po file.\nreturn " . var_export( $data, true ) . ";\n" );
