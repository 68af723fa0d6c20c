import Constants, { ExecutionEnvironment } from 'expo-constants';
import { useEffect, useState } from 'react';
import { Platform } from 'react-native';
import Purchases, { type CustomerInfo, LOG_LEVEL } from 'react-native-purchases';

export const ENTITLEMENT = 'pro';
export const FREE_HABIT_LIMIT = 3;

/** Expo Go has no native purchases module; screens show a notice instead. */
export const purchasesAvailable = Constants.executionEnvironment !== ExecutionEnvironment.StoreClient;

let configured = false;

export function configurePurchases(userId: string) {
  if (!purchasesAvailable || configured) return;
  const apiKey = Platform.select({
    ios: process.env.EXPO_PUBLIC_REVENUECAT_IOS_KEY,
    android: process.env.EXPO_PUBLIC_REVENUECAT_ANDROID_KEY,
  });
  if (!apiKey) return;
  if (__DEV__) Purchases.setLogLevel(LOG_LEVEL.DEBUG);
  // Use the Supabase user id so purchases follow the account across devices.
  Purchases.configure({ apiKey, appUserID: userId });
  configured = true;
}

export function usePro(): boolean {
  const [pro, setPro] = useState(false);
  useEffect(() => {
    if (!configured) return;
    const update = (info: CustomerInfo) => setPro(info.entitlements.active[ENTITLEMENT] !== undefined);
    Purchases.getCustomerInfo().then(update).catch(() => setPro(false));
    Purchases.addCustomerInfoUpdateListener(update);
    return () => {
      Purchases.removeCustomerInfoUpdateListener(update);
    };
  }, []);
  return pro;
}
