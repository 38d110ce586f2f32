<?php
/**
 * Plugin Name:       MagniFinance Invoices for WooCommerce
 * Description:       Shows the certified invoice the MagniFinance connector issued for each order: its number and PDF in the orders list and on the order screen, a download link in the buyer's My Account, and a "resend by e-mail" order action. It only reads what the connector wrote on the order; it issues nothing itself.
 * Version:           1.0.0
 * Requires at least: 6.5
 * Requires PHP:      7.4
 * Requires Plugins:  woocommerce
 * Author:            MagniFinance connector
 * License:           GPL-2.0-or-later
 * License URI:       https://www.gnu.org/licenses/gpl-2.0.html
 * Text Domain:       magnifinance-invoices
 * Domain Path:       /languages
 * WC requires at least: 8.2
 *
 * @package MagniFinance_Invoices
 */

/*
 * This program is free software; you can redistribute it and/or modify it under the terms of the GNU
 * General Public License as published by the Free Software Foundation; either version 2 of the
 * License, or (at your option) any later version. This program is distributed in the hope that it
 * will be useful, but WITHOUT ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or
 * FITNESS FOR A PARTICULAR PURPOSE. See the GNU General Public License for more details.
 */

defined( 'ABSPATH' ) || exit;

define( 'MAGNIFINANCE_INVOICES_FILE', __FILE__ );

require_once __DIR__ . '/includes/class-magnifinance-invoices-documents.php';
require_once __DIR__ . '/includes/class-magnifinance-invoices-view.php';
require_once __DIR__ . '/includes/class-magnifinance-invoices-admin.php';
require_once __DIR__ . '/includes/class-magnifinance-invoices-account.php';
require_once __DIR__ . '/includes/class-magnifinance-invoices-resend.php';

// Orders in WooCommerce's own tables (HPOS) and in posts: both are read through WC_Order.
add_action(
	'before_woocommerce_init',
	function () {
		if ( class_exists( '\Automattic\WooCommerce\Utilities\FeaturesUtil' ) ) {
			\Automattic\WooCommerce\Utilities\FeaturesUtil::declare_compatibility( 'custom_order_tables', MAGNIFINANCE_INVOICES_FILE, true );
		}
	}
);

add_action(
	'init',
	function () {
		load_plugin_textdomain( 'magnifinance-invoices', false, dirname( plugin_basename( MAGNIFINANCE_INVOICES_FILE ) ) . '/languages' );
	}
);

add_action(
	'plugins_loaded',
	function () {
		if ( ! function_exists( 'wc_get_order' ) ) {
			return; // WooCommerce is not active: nothing to show.
		}
		MagniFinance_Invoices_Admin::register();
		MagniFinance_Invoices_Account::register();
		MagniFinance_Invoices_Resend::register();
	}
);
