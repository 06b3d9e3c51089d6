/**
 * A decider is three plain things: the state before any event, how an event changes the state,
 * and which events a command produces given the state. Both functions are pure: no I/O and no
 * clock (the time arrives in the context), so they are tested as given(events).when(command).then(events).
 */
export interface DomainEvent<Type extends string = string, Data = Record<string, unknown>> {
  type: Type;
  data: Data;
}

export interface DecisionContext {
  now: Date;
  actor: string;
  tenantId: string;
}

export interface Decider<State, Command, Event extends DomainEvent> {
  initialState: () => State;
  evolve: (state: State, event: Event) => State;
  /** Returns the new events, or throws a DomainRejection. */
  decide: (command: Command, state: State, context: DecisionContext) => Event[];
}

export const fold = <State, Event extends DomainEvent>(
  decider: Pick<Decider<State, never, Event>, 'initialState' | 'evolve'>,
  events: Event[],
): State => events.reduce(decider.evolve, decider.initialState());
