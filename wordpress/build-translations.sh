#!/usr/bin/env bash
# The companion plugin's translations: the template (.pot) from the PHP sources, the Portuguese .po
# brought up to date with it (new strings arrive untranslated, to be translated by hand), and the
# .l10n.php WordPress loads. Needs gettext (xgettext, msgmerge) and php-cli.
set -euo pipefail
cd "$(dirname "$0")/magnifinance-invoices"
xgettext --language=PHP --from-code=UTF-8 --keyword=__ --keyword=esc_html__ --add-comments=translators: \
  --package-name="MagniFinance Invoices for WooCommerce" --package-version=1.0.0 --msgid-bugs-address="" \
  --sort-by-file --no-wrap -o languages/magnifinance-invoices.pot magnifinance-invoices.php includes/*.php
msgmerge --quiet --no-wrap --update --backup=none --no-fuzzy-matching languages/magnifinance-invoices-pt_PT.po languages/magnifinance-invoices.pot
php ../po-to-l10n.php languages/magnifinance-invoices-pt_PT.po languages/magnifinance-invoices-pt_PT.l10n.php
