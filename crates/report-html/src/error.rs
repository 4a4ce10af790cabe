//! Why a page could not be made (its own module: the plots report errors too, and the
//! root uses the plots).

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("the report does not have the shape of a rulesmith report: {0}")]
    Shape(String),
    #[error("drawing a plot failed: {0}")]
    Plot(String),
}
