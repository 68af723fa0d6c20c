import { Body, Button, Container, Head, Heading, Html, Preview, Text } from '@react-email/components';

interface InvitationEmailProps {
  teamName: string;
  inviterName: string;
  acceptUrl: string;
}

export default function InvitationEmail({ teamName, inviterName, acceptUrl }: InvitationEmailProps) {
  return (
    <Html>
      <Head />
      <Preview>{`${inviterName} invited you to ${teamName} on Acme`}</Preview>
      <Body style={{ backgroundColor: '#f4f4f5', fontFamily: 'system-ui, sans-serif' }}>
        <Container style={{ backgroundColor: '#ffffff', borderRadius: 12, padding: 32, margin: '40px auto', maxWidth: 480 }}>
          <Heading style={{ fontSize: 20 }}>Join {teamName}</Heading>
          <Text>
            {inviterName} invited you to collaborate in <strong>{teamName}</strong>. The link is valid for 7 days.
          </Text>
          <Button href={acceptUrl} style={{ backgroundColor: '#4f46e5', color: '#fff', padding: '10px 18px', borderRadius: 8 }}>
            Accept invitation
          </Button>
          <Text style={{ color: '#71717a', fontSize: 12 }}>If you were not expecting this email you can ignore it.</Text>
        </Container>
      </Body>
    </Html>
  );
}

InvitationEmail.PreviewProps = {
  teamName: 'Northwind',
  inviterName: 'Dana',
  acceptUrl: 'http://localhost:3100/invite/preview-token',
} satisfies InvitationEmailProps;
