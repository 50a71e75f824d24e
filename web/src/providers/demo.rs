//! The demo provider: replays the answer `roundtable-core`'s offline demo model wrote into the
//! call ([`ModelCall::demo`](roundtable_core::protocol::ModelCall)). No key, no network, and
//! nothing here knows what a call is about: the engine decides the demo answer, as it decides
//! everything else.

use futures::future::LocalBoxFuture;

use super::{CallRequest, Completion, Provider, ProviderError, StopReason};

/// The demo adapter.
pub struct Demo;

impl Provider for Demo {
    fn complete<'a>(
        &'a self,
        request: CallRequest<'a>,
    ) -> LocalBoxFuture<'a, Result<Completion, ProviderError>> {
        Box::pin(async move {
            // The engine fills it for members on the demo provider only.
            let answer = request.call.demo.clone().ok_or_else(|| {
                ProviderError::Malformed(format!(
                    "{} is not on the demo provider: the engine wrote no demo answer for it",
                    request.call.member
                ))
            })?;
            Ok(Completion {
                text: answer.text,
                stop: if answer.finish_reason == "length" {
                    StopReason::Length
                } else {
                    StopReason::Done
                },
                input_tokens: Some(answer.prompt_tokens),
                output_tokens: Some(answer.completion_tokens),
                cost_micro_usd: None,
            })
        })
    }
}
