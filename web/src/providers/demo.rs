//! The demo provider: answers from `roundtable-core`'s offline demo model. No key, no network.

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
            let answer = crate::demo_bridge::answer(request.call);
            Ok(Completion {
                text: answer.text,
                stop: if answer.finish_reason == "length" {
                    StopReason::Length
                } else {
                    StopReason::Done
                },
                input_tokens: Some(answer.usage.prompt_tokens),
                output_tokens: Some(answer.usage.completion_tokens),
            })
        })
    }
}
