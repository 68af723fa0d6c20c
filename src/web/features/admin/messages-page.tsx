import { useState } from 'react';
import { useSearchParams } from 'react-router';
import type { OwnerMessage } from '../../../common/schemas/owner.ts';
import { useToast } from '../../components/toasts.tsx';
import { type MessageFilter, useMessages, useReply } from './admin-api.ts';
import { count, dateTime } from './format.ts';
import { SearchForm, useSetParam } from './search-form.tsx';
import { ConfirmDialog, EmptyState, errorText, LoadMore, PageHeader, QueryState, TextArea } from './ui.tsx';

const LABELS: Record<MessageFilter, string> = { new: 'New', answered: 'Answered', all: 'All' };
const FILTERS = Object.keys(LABELS) as MessageFilter[];

/** "3 messages", or with a search "3 messages match". */
function totalText(total: number, searching: boolean) {
  const noun = total === 1 ? 'message' : 'messages';
  return searching ? `${noun} ${total === 1 ? 'matches' : 'match'}` : noun;
}

export default function MessagesPage() {
  const [params] = useSearchParams();
  const setParam = useSetParam();
  const query = params.get('query') ?? '';
  // New ones first: they wait for an answer (the address says `status=all` or `answered` otherwise).
  const filter = FILTERS.find((f) => f === params.get('status')) ?? 'new';
  const messages = useMessages(filter, query);
  const reply = useReply();
  const toast = useToast();
  const [target, setTarget] = useState<OwnerMessage | null>(null);
  const bodyState = useState('');
  const [body, setBody] = bodyState;

  const close = () => {
    setTarget(null);
    reply.reset();
  };
  const submit = () => {
    if (!target) return;
    reply.mutate(
      { id: target.id, body: body.trim() },
      {
        onSuccess: () => {
          setTarget(null);
          toast({ title: 'Reply sent', body: `Your answer is on its way to ${target.email}.` });
        },
      },
    );
  };
  const items = messages.data?.pages.flatMap((page) => page.items) ?? [];
  const total = messages.data?.pages[0]?.total;

  return (
    <>
      <PageHeader title="Messages" />
      <SearchForm placeholder="Name, e-mail or text">
        <fieldset className="btn-group admin-status-filter" aria-label="Show">
          {FILTERS.map((f) => (
            <button
              key={f}
              type="button"
              className={`btn ${filter === f ? 'btn-primary' : 'btn-outline-primary'}`}
              aria-pressed={filter === f}
              onClick={() => setParam('status', f === 'new' ? '' : f)}
            >
              {LABELS[f]}
            </button>
          ))}
        </fieldset>
      </SearchForm>
      <QueryState query={messages} label="messages" />
      {total !== undefined && total > 0 && (
        <p className="admin-total">
          <strong>{count(total)}</strong> {totalText(total, query !== '')}
        </p>
      )}
      {messages.data && items.length === 0 && (
        <EmptyState>
          {query
            ? 'No message matches this search.'
            : filter === 'new'
              ? 'No message is waiting for an answer.'
              : 'No messages.'}
        </EmptyState>
      )}
      <div className="admin-messages">
        {items.map((message) => (
          <article className="card admin-card" key={message.id} aria-labelledby={`message-${message.id}`}>
            <div className="card-body">
              <div className="d-flex flex-wrap gap-2 align-items-baseline mb-2">
                <h2 className="h6 mb-0" id={`message-${message.id}`}>
                  {message.name}
                </h2>
                <span className="small text-body-secondary text-break">{message.email}</span>
                {message.topic && <span className="badge text-bg-light">{message.topic}</span>}
                <span className={`badge ${message.status === 'new' ? 'text-bg-primary' : 'text-bg-success'}`}>
                  {message.status === 'new' ? 'New' : 'Answered'}
                </span>
                <small className="text-body-secondary ms-auto">{dateTime(message.created_at)}</small>
              </div>
              <p className="admin-message-text">{message.message}</p>
              <button
                type="button"
                className="btn btn-sm btn-primary"
                aria-label={`Reply to ${message.name}`}
                onClick={() => {
                  setBody('');
                  setTarget(message);
                }}
              >
                Reply
              </button>
            </div>
          </article>
        ))}
      </div>
      {items.length > 0 && (
        <div className="mt-3">
          <LoadMore query={messages} />
        </div>
      )}
      <ConfirmDialog
        show={target !== null}
        title={`Reply to ${target?.name ?? ''}`}
        confirmLabel="Send reply"
        busy={reply.isPending}
        error={reply.isError ? errorText(reply.error, 'The reply could not be sent.') : null}
        disabled={!body.trim()}
        onConfirm={submit}
        onClose={close}
      >
        <blockquote className="admin-quote">{target?.message}</blockquote>
        <TextArea
          id="reply-body"
          label="Your reply"
          rows={6}
          maxLength={10_000}
          required
          state={bodyState}
          hint={`Sent by e-mail to ${target?.email}, with the support address to reply to; the message is then marked answered.`}
        />
      </ConfirmDialog>
    </>
  );
}
