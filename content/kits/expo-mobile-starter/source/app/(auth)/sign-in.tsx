import { router } from 'expo-router';
import { useState } from 'react';
import { ActivityIndicator, KeyboardAvoidingView, Platform, Pressable, StyleSheet, Text, TextInput } from 'react-native';
import { radius, spacing, type, useTheme } from '@/constants/theme';
import { sendCode } from '@/lib/auth';

export default function SignIn() {
  const theme = useTheme();
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const valid = /^\S+@\S+\.\S+$/.test(email.trim());

  async function submit() {
    setBusy(true);
    setError(null);
    try {
      await sendCode(email);
      router.push({ pathname: '/verify', params: { email } });
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <KeyboardAvoidingView behavior={Platform.OS === 'ios' ? 'padding' : undefined} style={[styles.screen, { backgroundColor: theme.background }]}>
      <Text style={[type.title, { color: theme.text }]}>Sign in</Text>
      <Text style={[type.body, { color: theme.muted, marginTop: spacing.sm }]}>We will email you a 6-digit code. No password needed.</Text>
      <TextInput
        value={email}
        onChangeText={setEmail}
        placeholder="you@example.com"
        placeholderTextColor={theme.muted}
        autoCapitalize="none"
        autoComplete="email"
        keyboardType="email-address"
        textContentType="emailAddress"
        style={[styles.input, { backgroundColor: theme.card, color: theme.text }]}
        onSubmitEditing={valid ? submit : undefined}
      />
      {error && <Text style={{ color: theme.danger, marginBottom: spacing.sm }}>{error}</Text>}
      <Pressable
        accessibilityRole="button"
        disabled={!valid || busy}
        onPress={submit}
        style={[styles.button, { backgroundColor: theme.accent, opacity: valid ? 1 : 0.5 }]}
      >
        {busy ? <ActivityIndicator color="#fff" /> : <Text style={styles.buttonText}>Send code</Text>}
      </Pressable>
    </KeyboardAvoidingView>
  );
}

const styles = StyleSheet.create({
  screen: { flex: 1, justifyContent: 'center', padding: spacing.lg },
  input: { borderRadius: radius.md, padding: spacing.md, fontSize: 17, marginVertical: spacing.lg },
  button: { borderRadius: radius.md, paddingVertical: spacing.md, alignItems: 'center' },
  buttonText: { color: '#fff', fontSize: 17, fontWeight: '600' },
});
