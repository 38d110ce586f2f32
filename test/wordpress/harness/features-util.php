<?php
/**
 * WooCommerce's FeaturesUtil, recording what a plugin declares it is compatible with.
 */

namespace Automattic\WooCommerce\Utilities;

final class FeaturesUtil {
	public static $declared = array();
	public static function declare_compatibility( $feature_id, $plugin_file, $positive_compatibility = true ) {
		self::$declared[] = array( 'feature' => $feature_id, 'file' => basename( $plugin_file ), 'compatible' => $positive_compatibility );
		return true;
	}
}
