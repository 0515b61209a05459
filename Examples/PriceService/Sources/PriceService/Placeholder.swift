import Hummingbird
import StorePrice
