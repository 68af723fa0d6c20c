import { router } from 'expo-router';
import { useEffect, useState } from 'react';
import { Alert, Linking, Pressable, ScrollView, StyleSheet, Text } from 'react-native';
import Purchases, { type PurchasesPackage } from 'react-native-purchases';
import { LINKS } from '@/constants/links';
import { radius, spacing, type, useTheme } from '@/constants/theme';
import { ENTITLEMENT, purchasesAvailable } from '@/lib/purchases';

export default function Paywall() {
  const theme = useTheme();
  const [packages, setPackages] = useState<PurchasesPackage[]>([]);
  const [selected, setSelected] = useState<string | null>(null);

  useEffect(() => {
    if (!purchasesAvailable) return;
    Purchases.getOfferings().then((offerings) => {
      const available = offerings.current?.availablePackages ?? [];
      setPackages(available);
      setSelected(available.find((p) => p.packageType === 'ANNUAL')?.identifier ?? available[0]?.identifier ?? null);
    });
  }, []);

  async function buy() {
    const pkg = packages.find((p) => p.identifier === selected);
    if (!pkg) return;
    try {
      const { customerInfo } = await Purchases.purchasePackage(pkg);
      if (customerInfo.entitlements.active[ENTITLEMENT]) router.back();
    } catch (e) {
      if (!(e as { userCancelled?: boolean }).userCancelled) Alert.alert('Purchase failed', (e as Error).message);
    }
  }

  async function restore() {
    const info = await Purchases.restorePurchases();
    Alert.alert(info.entitlements.active[ENTITLEMENT] ? 'Pro restored' : 'No previous purchase found');
  }

  return (
    <ScrollView contentContainerStyle={[styles.screen, { backgroundColor: theme.background }]}>
      <Text style={[type.title, { color: theme.text }]}>Habits Pro</Text>
      <Text style={[type.body, { color: theme.muted, marginVertical: spacing.md }]}>
        Unlimited habits, reminders per habit and a full-year streak history.
      </Text>
      {!purchasesAvailable && <Text style={{ color: theme.muted }}>Purchases need a development build; Expo Go cannot load them.</Text>}
      {packages.map((pkg) => (
        <Pressable
          key={pkg.identifier}
          onPress={() => setSelected(pkg.identifier)}
          style={[styles.plan, { backgroundColor: theme.card, borderColor: selected === pkg.identifier ? theme.accent : 'transparent' }]}
        >
          <Text style={[type.heading, { color: theme.text }]}>{pkg.product.title}</Text>
          <Text style={{ color: theme.muted }}>{pkg.product.priceString}</Text>
        </Pressable>
      ))}
      <Pressable onPress={buy} disabled={!selected} style={[styles.cta, { backgroundColor: theme.accent }]}>
        <Text style={styles.ctaText}>Continue</Text>
      </Pressable>
      <Pressable onPress={restore}>
        <Text style={[styles.link, { color: theme.accent }]}>Restore purchases</Text>
      </Pressable>
      <Text style={[styles.legal, { color: theme.muted }]} onPress={() => Linking.openURL(LINKS.terms)}>
        Subscriptions renew automatically until cancelled in your store account settings. Terms of use · Privacy policy
      </Text>
    </ScrollView>
  );
}

const styles = StyleSheet.create({
  screen: { flexGrow: 1, padding: spacing.lg, paddingTop: spacing.xl * 2 },
  plan: { borderRadius: radius.md, borderWidth: 2, padding: spacing.md, marginBottom: spacing.sm },
  cta: { borderRadius: radius.md, paddingVertical: spacing.md, alignItems: 'center', marginTop: spacing.md },
  ctaText: { color: '#fff', fontSize: 17, fontWeight: '600' },
  link: { textAlign: 'center', marginTop: spacing.md, fontWeight: '500' },
  legal: { fontSize: 12, textAlign: 'center', marginTop: spacing.lg },
});
