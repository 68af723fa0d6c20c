/**
 * ISO 3166-1 alpha-2 codes of the countries an invoice address may name (the list Paddle accepts
 * for a customer's address). Names come from the browser's `Intl.DisplayNames` where shown.
 */
export const COUNTRY_CODES = (
  'AD AE AG AI AL AM AO AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BZ ' +
  'CA CC CG CH CI CK CL CM CN CO CR CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ' +
  'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HU ID IE IL IM IN IO IQ IS IT JE JM ' +
  'JO JP KE KG KH KI KM KN KR KW KY KZ LA LB LC LI LK LR LS LT LU LV MA MC MD ME MF MG MH MK ML MN MO MP MQ ' +
  'MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY ' +
  'QA RE RO RS RW SA SB SC SE SG SH SI SJ SK SL SM SN SR ST SV SX SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT ' +
  'TV TW TZ UA UG UM US UY UZ VA VC VG VI VN VU WF WS XK YT ZA ZM'
).split(' ');

export const isCountryCode = (code: string) => COUNTRY_CODES.includes(code);
