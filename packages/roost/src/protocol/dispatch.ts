/** What `dispatch` starts a job from; a schedule's runs take the same, without the request id. */
export interface DispatchArgs {
  profile: string;
  task?: string;
  cwd?: string;
  name?: string;
  requestId?: string;
}
